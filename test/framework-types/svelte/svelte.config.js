// svelte-check reads this folder's config (none needed) instead of looking further up for one.
export default {};
