// /profile's index is its posts tab (PRODUCT §2).
export { default, loader, meta } from "./profile.posts";
