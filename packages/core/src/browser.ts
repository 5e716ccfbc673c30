/**
 * The browser-safe part of `@paykit/core`: errors, money rules and URL checks, with no zod and no
 * Node API, so that the elements stay small.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './money.js';
export * from './safe-url.js';
