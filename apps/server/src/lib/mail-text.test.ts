import { describe, expect, it } from 'vitest';
import { mailSafeText } from './mail-text';
import { recipientsOf } from './mail-budget';

describe('mailSafeText', () => {
  it.each([
    ['Click http://evil.example/\r\nBcc: x', 'Click Bcc: x'],
    ['see HTTPS://Evil.Example/a?b=c#d now', 'see now'],
    ['ftp://files.evil.example', ''],
    ['go to www.evil.example/path today', 'go to today'],
    ['visit evil.example or sub.evil.co.uk/x', 'visit or'],
    ['mail me: x@evil.example', 'mail me: x@'],
    ['mailto:x@evil.example javascript:alert(1)', ''],
    ['fullwidth ｅｖｉｌ．ｅｘａｍｐｌｅ', 'fullwidth'],
    ['ideographic evil。example', 'ideographic'],
    ['tab\tand\u2028line\u2029para\u0085nel\u202Ebidi\u200Bzw', 'tab and line para nel bidi zw'],
    ['   spaced    out   ', 'spaced out'],
  ])('%j → %j', (input, expected) => {
    expect(mailSafeText(input)).toBe(expected);
  });

  it.each([
    'Свети Николе GES',
    'Karapınar GES 2.5 MW',
    'Vardar Enerji A.Ş.',
    'Çağrı Öztürk',
    'Plant No. 3',
    'INV-01 / String 4',
    '10.0.0.10',
  ])('keeps the ordinary name %j', (name) => {
    expect(mailSafeText(name)).toBe(name);
  });
});

describe('recipientsOf', () => {
  it('answers each address once in lower case, without display names', () => {
    expect(recipientsOf('Victim@Outside.EXAMPLE')).toEqual(['victim@outside.example']);
    expect(recipientsOf('"A" <a@x.example>, b@y.example; ')).toEqual(['a@x.example', 'b@y.example']);
  });
});
