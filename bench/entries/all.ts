// The script-tag file: every element.
export * from '@paykit/elements/all';
