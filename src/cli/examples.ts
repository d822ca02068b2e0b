import type { Command } from 'commander';

/**
 * One example or more for every command's --help, by the command's path. A
 * command without one fails the test that walks them all, so a new command
 * cannot ship without.
 */
export const EXAMPLES: Record<string, string[]> = {
  new: ['fatecraft new campaigns/iron-coast', 'fatecraft new /srv/games/autumn --name autumn-2026'],
  start: ['fatecraft start campaigns/iron-coast', 'fatecraft start campaigns/iron-coast --new-tokens   # before turn 1: every token replaced and mailed again'],
  turn: ['fatecraft turn campaigns/silversheen', 'fatecraft turn campaigns/silversheen --expect 4     # only if turn 4 is pending', 'fatecraft turn campaigns/silversheen --preview      # for the GM only; nothing changes'],
  report: ['fatecraft report campaigns/silversheen', 'fatecraft report campaigns/silversheen --turn 3 --nation argenta'],
  generate: ['fatecraft generate /tmp/big --nations 1000 --units-per-nation 100'],
  check: ['fatecraft check campaigns/silversheen orders.txt', 'fatecraft check campaigns/silversheen mail.eml --json', 'fatecraft check campaigns/silversheen fixed-argenta.txt --turn 3   # against the state before turn 3, to prepare a rerun'],
  mail: ['fatecraft mail fetch campaigns/silversheen', 'fatecraft mail send campaigns/silversheen'],
  'mail fetch': ['fatecraft mail fetch campaigns/silversheen', 'fatecraft mail fetch campaigns/silversheen --no-send   # file orders, answer later'],
  'mail send': ['fatecraft mail send campaigns/silversheen', 'fatecraft mail send campaigns/silversheen --turn 3 --rerun 1   # corrected reports of turn 3'],
  'mail status': ['fatecraft mail status campaigns/silversheen', 'fatecraft mail status campaigns/silversheen --json'],
  'mail accept': ['fatecraft mail accept campaigns/silversheen "<abc@example.org>"   # orders held because DMARC failed'],
  'mail reprocess': ['fatecraft mail reprocess campaigns/silversheen', 'fatecraft mail reprocess campaigns/silversheen "<abc@example.org>"'],
  tick: ['fatecraft tick campaigns/silversheen', '*/5 * * * *  cd /srv/fatecraft && fatecraft tick campaigns/silversheen   # crontab'],
  daemon: ['fatecraft daemon campaigns/silversheen', 'fatecraft daemon campaigns/a campaigns/b --poll 2m'],
  serve: ['fatecraft serve campaigns/silversheen', 'fatecraft serve /srv/fatecraft/campaigns --port 8080 --url https://desk.example.org --trust-proxy   # every campaign in the folder, behind a TLS proxy (docs/web.md)'],
  status: ['fatecraft status campaigns/silversheen', 'fatecraft status campaigns/silversheen --json', 'fatecraft status campaigns/silversheen --check   # for cron or systemd: silent and exit 0 unless something needs the GM'],
  rerun: ['fatecraft rerun campaigns/silversheen 3', 'fatecraft rerun campaigns/silversheen 3 --no-reports', 'fatecraft rerun campaigns/silversheen 3 --reason "argenta\'s orders were filed late"   # the reason goes into the GM\'s log'],
  rollback: ['fatecraft rollback campaigns/silversheen 2', 'fatecraft rollback campaigns/silversheen 2 --deadline "2025-03-30 18:00"'],
  extend: ['fatecraft extend campaigns/silversheen --by 24h', 'fatecraft extend campaigns/silversheen --to "2025-03-30 18:00" --reason "the mail server was down"'],
  pause: ['fatecraft pause campaigns/silversheen --reason "GM on holiday until the 30th"'],
  resume: ['fatecraft resume campaigns/silversheen'],
  nation: ['fatecraft nation add campaigns/silversheen skarn --sheet skarn.yaml --email player@example.org'],
  'nation add': ['fatecraft nation add campaigns/silversheen skarn --sheet skarn.yaml --email player@example.org'],
  'nation drop': ['fatecraft nation drop campaigns/silversheen westvalia', 'fatecraft nation drop campaigns/silversheen westvalia --neutral'],
  'nation reassign': ['fatecraft nation reassign campaigns/silversheen westvalia --email new.player@example.org'],
  'nation offer': ['fatecraft nation offer campaigns/silversheen westvalia new.player@example.org', 'fatecraft nation offer campaigns/silversheen westvalia new.player@example.org --name "Hild"   # anyone, not from the standby list'],
  'nation split': ['fatecraft nation split campaigns/silversheen vulcanstille ashfree --name "The Free Cities of Ash" --leader "Warden Oska" --settlements Cinderford --email oska@example.org'],
  token: ['fatecraft token campaigns/silversheen westvalia --new   # the token leaked: a new one, mailed to that player only'],
  repair: ['fatecraft repair campaigns/silversheen   # after status says "DAMAGED TURN"'],
};

/** Adds each command's examples to the end of its --help. */
export function addExamples(program: Command): void {
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const key = [...path, sub.name()].join(' ');
      const examples = EXAMPLES[key];
      if (examples) sub.addHelpText('after', `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((e) => `  ${e}`).join('\n')}\n`);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, []);
}
