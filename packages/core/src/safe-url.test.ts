import { describe, expect, it } from 'vitest';
import { parseAllowedUrl, parseWebUrl } from './safe-url.js';

describe('parseWebUrl', () => {
  it.each([
    'https://checkout.example/pay/1',
    'http://127.0.0.1:4010/checkout/1',
    'http://localhost:4010/checkout/1',
    'http://[::1]:4010/checkout/1',
  ])('accepts %s', (url) => {
    expect(parseWebUrl(url)?.href).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'blob:https://checkout.example/1',
    '//evil.test/pay',
    '/relative/path',
    'http://checkout.example/pay',
    'http://127.0.0.2/pay',
    'https://user:pass@checkout.example/',
    'ftp://checkout.example/',
    'not a url',
    '',
    'https://' + 'a'.repeat(2050) + '.test/',
  ])('refuses %s', (url) => {
    expect(parseWebUrl(url)).toBeUndefined();
  });

  it('refuses non-strings', () => {
    expect(parseWebUrl(undefined)).toBeUndefined();
    expect(parseWebUrl({ href: 'https://x.test' })).toBeUndefined();
  });
});

describe('parseAllowedUrl', () => {
  const allowed = ['https://checkout.example', 'http://127.0.0.1:4010'];

  it('accepts an URL on an allowed origin, compared after parsing', () => {
    expect(parseAllowedUrl('https://CHECKOUT.example:443/pay/1', allowed)?.pathname).toBe('/pay/1');
    expect(parseAllowedUrl('http://127.0.0.1:4010/checkout/1', allowed)).toBeDefined();
  });

  it.each([
    'https://checkout.example.evil.test/pay',
    'https://evil.test/https://checkout.example',
    'https://checkout.example@evil.test/',
    'https://checkout.example:8443/pay',
    'http://checkout.example/pay',
    'http://127.0.0.1:4011/checkout/1',
    'https:\\\\evil.test\\pay',
  ])('refuses the look-alike %s', (url) => {
    expect(parseAllowedUrl(url, allowed)).toBeUndefined();
  });

  it('refuses everything when the allow-list is empty', () => {
    expect(parseAllowedUrl('https://checkout.example/pay', [])).toBeUndefined();
  });
});
