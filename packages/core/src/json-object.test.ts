import { describe, expect, it } from 'vitest';
import { isJsonObject } from './json-object.js';

describe('isJsonObject', () => {
  it('is true for an object, with or without a prototype', () => {
    expect(isJsonObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isJsonObject(Object.create(null))).toBe(true);
  });

  it('is false for null, arrays and scalars', () => {
    for (const text of ['null', '[]', '[{"a":1}]', '"a"', '1', 'true'])
      expect(isJsonObject(JSON.parse(text))).toBe(false);
    expect(isJsonObject(undefined)).toBe(false);
  });
});
