import { describe, expect, it } from 'vitest';
import { MailError, fromFsError, fromImapError, fromSmtpError, isImapConnectionError } from '../../src/mail/errors.js';

const smtp = (fields: Record<string, unknown>) => Object.assign(new Error('boom'), fields);

describe('fromSmtpError', () => {
  it.each([
    [{ code: 'EENVELOPE', responseCode: 550 }, 'EPERM'],
    [{ code: 'EMESSAGE', responseCode: 554 }, 'EPERM'],
    [{ code: 'EMESSAGE', responseCode: 451 }, 'ETEMP'],
    [{ code: 'EENVELOPE', responseCode: 452 }, 'ETEMP'],
    [{ code: 'EPROTOCOL', responseCode: 503 }, 'ETEMP'], // bad sequence: the session, not the message
    [{ code: 'EPROTOCOL', responseCode: 421 }, 'ETEMP'],
    [{ code: 'EAUTH', responseCode: 535 }, 'EAUTH'],
    [{ code: 'ENOAUTH' }, 'EAUTH'],
    [{ code: 'ESOCKET', originalCode: 'ECONNREFUSED' }, 'ETEMP'],
    [{ code: 'ECONNECTION' }, 'ETEMP'],
    [{ code: 'ETIMEDOUT' }, 'ETEMP'],
    [{ code: 'ETLS' }, 'ECONFIG'],
    [{ code: 'ECONFIG' }, 'ECONFIG'],
    [{ code: 'EENVELOPE' }, 'EPERM'], // nodemailer refused it before any server saw it
    [{}, 'ETEMP'],
  ])('%o → %s', (fields, code) => {
    const error = fromSmtpError(smtp(fields), 'sending x');
    expect(error).toBeInstanceOf(MailError);
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(code === 'ETEMP');
    expect(error.message).toBe('sending x: boom');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('keeps the reply code and passes MailErrors through unchanged', () => {
    const mapped = fromSmtpError(smtp({ responseCode: 550 }), 'x');
    expect(mapped.responseCode).toBe(550);
    expect(fromSmtpError(mapped, 'again')).toBe(mapped);
  });

  it('maps a non-Error value', () => {
    expect(fromSmtpError('weird', 'x')).toMatchObject({ code: 'ETEMP', message: 'x: weird' });
  });
});

describe('fromImapError', () => {
  it.each([
    [{ authenticationFailed: true, serverResponseCode: 'AUTHENTICATIONFAILED' }, 'EAUTH'],
    [{ code: 'NoConnection' }, 'ETEMP'],
    [{ code: 'EConnectionClosed' }, 'ETEMP'],
    [{ code: 'ECONNREFUSED' }, 'ETEMP'],
    [{ responseStatus: 'NO', serverResponseCode: 'UNAVAILABLE' }, 'ETEMP'],
    [{ responseStatus: 'NO', serverResponseCode: 'OVERQUOTA' }, 'EPERM'],
    [{ responseStatus: 'BAD' }, 'EPERM'],
    [{ tlsFailed: true }, 'ECONFIG'],
    [{ mailboxMissing: true }, 'ECONFIG'],
    [{}, 'ETEMP'],
  ])('%o → %s', (fields, code) => {
    expect(fromImapError(smtp(fields), 'listing').code).toBe(code);
  });

  it('tells connection loss apart from command failures', () => {
    expect(isImapConnectionError(smtp({ code: 'NoConnection' }))).toBe(true);
    expect(isImapConnectionError(smtp({ responseStatus: 'NO' }))).toBe(false);
    expect(isImapConnectionError(undefined)).toBe(false);
  });
});

describe('fromFsError', () => {
  it('treats missing or forbidden paths as configuration, other failures as temporary', () => {
    expect(fromFsError(smtp({ code: 'EACCES' }), 'writing').code).toBe('ECONFIG');
    expect(fromFsError(smtp({ code: 'ENOSPC' }), 'writing').code).toBe('ETEMP');
  });
});
