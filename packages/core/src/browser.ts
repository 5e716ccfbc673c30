/**
 * The browser-safe part of `@paykit/core`: errors, money rules, URL checks and the handler's routes, with no zod
 * and no Node API, so that the elements stay small.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './handler-routes.js';
export * from './merchant-view-routes.js';
export * from './amounts.js';
export * from './safe-url.js';
