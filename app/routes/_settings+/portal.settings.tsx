// The mobile menu's settings page is the same page (PRODUCT §2).
export { action, default, loader, meta } from "./user.settings._index";
