/**
 * The script-tag entry: defines every paykit element and exposes the classes and headless functions
 * (as the global `Paykit` in the classic-script build).
 */
import './connect-button/define.js';
import './pay-button/define.js';
import './return/define.js';

export * from './index.js';
