/** The browser half of shop-data.ts. */
import { SHOP_DATA_ID, type ShopData } from './shop-data.js';

/** Reads the page's data block. */
export function readShopData(): ShopData {
  const block = document.getElementById(SHOP_DATA_ID);
  if (!block?.textContent) throw new Error(`The page has no #${SHOP_DATA_ID} data block`);
  // The block shop-data.ts wrote into this page on the server: the page's own data.
  return JSON.parse(block.textContent) as ShopData;
}
