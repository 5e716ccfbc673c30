/**
 * The code of a button inside a frame (framed.ts), as busy-button.ts loads it: a lazy chunk that only a page in a
 * frame fetches, as soon as a button is on it, so that its click can open a tab before anything is awaited.
 */
export const loadFramed = () => import('./framed.js');
