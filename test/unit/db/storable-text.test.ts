import { describe, expect, it } from 'vitest';
import { storableText } from '../../../src/db/storable-text';

describe('storableText', () => {
  it('replaces NUL and lone surrogates with U+FFFD', () => {
    expect(storableText('ok\u0000ok')).toBe('ok\uFFFDok');
    expect(storableText('\u0000\u0000')).toBe('\uFFFD\uFFFD');
    expect(storableText('a\uD800b')).toBe('a\uFFFDb');
    expect(storableText('a\uDC00b')).toBe('a\uFFFDb');
    expect(storableText('end\uD83D')).toBe('end\uFFFD');
    expect(storableText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
  });

  it('keeps every other text as it is, pairs of surrogates (emoji) and other control characters included', () => {
    for (const text of ['', 'ok', 'caf\u00e9 \u{1F600} \u4e2d', '\u0001\u001f\u007f', '\uFFFD', 'tab\there']) expect(storableText(text)).toBe(text);
  });

  it('gives text whose UTF-8 encoding decodes back to itself', () => {
    const text = storableText('x\uD800\u0000\uDFFFy\u{1F600}');
    expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
    expect(text.includes('\u0000')).toBe(false);
  });
});
