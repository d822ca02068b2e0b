/**
 * Automatic mail that says so only in its subject. Many responders (Exchange and Outlook rules, webmail
 * vacation settings, ticket systems, phone carriers' mail apps) send no Auto-Submitted header, but their
 * subjects follow a few fixed phrasings per language. A match means: never answer it.
 */

/** A bracketed tag anywhere in the subject: `[AUTO GENERATED]`, `[Auto-Reply]`, `[Out of Office]`. */
const TAG = /\[\s*(?:auto[\s_-]*(?:generated|reply|response|responder|antwort)|autoreply|autoresponse|out[\s-]+of[\s-]+(?:the[\s-]+)?office|ooo|abwesend|absence)\s*\]/iu;

/**
 * The phrases responders put at the start of the subject, before the original subject ("Automatic reply:
 * Re: Turn 1 report"). English, German, French, Spanish, Portuguese, Italian, Dutch, the Nordic languages,
 * Polish, Czech, Russian, Turkish, Japanese, Chinese, Korean.
 */
const LEADING = new RegExp(
  '^\\s*(?:' +
    [
      'auto(?:matic|mated)?[\\s_-]*(?:reply|response|answer)',
      'autoreply',
      'autoresponse',
      'auto:',
      'out[\\s-]+of[\\s-]+(?:the[\\s-]+)?office',
      'vacation[\\s-]+(?:reply|response|notice)',
      'away[\\s-]+from[\\s-]+(?:the[\\s-]+|my[\\s-]+)?(?:office|desk)',
      'abwesenheits?(?:notiz|meldung|nachricht)',
      'automatische[\\s-]+antwort',
      'r[ée]ponse[\\s-]+automatique',
      'absence[\\s-]+du[\\s-]+bureau',
      'message[\\s-]+d[\'’]absence',
      'respuesta[\\s-]+autom[aá]tica',
      'fuera[\\s-]+de[\\s-]+(?:la[\\s-]+)?oficina',
      'resposta[\\s-]+autom[aá]tica',
      'aus[eê]ncia[\\s-]+do[\\s-]+escrit[oó]rio',
      'risposta[\\s-]+automatica',
      'fuori[\\s-]+sede',
      'automatisch[\\s-]+antwoord',
      'afwezigheidsbericht',
      'autosvar',
      'automatisk[\\s-]+svar',
      'automaattinen[\\s-]+vastaus',
      'automatyczna[\\s-]+odpowied[zź]',
      'automatick[aá][\\s-]+odpov[eě]d[’\']?',
      'автоответ',
      'автоматический[\\s-]+ответ',
      'otomatik[\\s-]+yan[ıi]t',
      '自動応答',
      '自動返信',
      '自动回复',
      '自動回覆',
      '자동[\\s-]*회신',
      '자동[\\s-]*응답',
    ].join('|') +
    ')',
  'iu',
);

/** Is this the subject of an automatic reply (vacation, out of office, "auto generated")? */
export function isAutomaticSubject(subject: string): boolean {
  // Only the first part of a long subject matters; it also bounds the work on a hostile one.
  const head = subject.slice(0, 300);
  return TAG.test(head) || LEADING.test(head);
}
