/**
 * The code of a button inside a frame (framed.ts), as busy-button.ts loads it: a lazy chunk that only a page in a
 * frame fetches, as soon as a button is on it, so that its click can open a tab before anything is awaited. A module
 * of its own, as lazy-start-connect.ts is: an `import()` written in busy-button.ts made Rolldown move the modules
 * both share out of `paykit.js` into a file every page fetched.
 */
export const loadFramed = () => import('./framed.js');
