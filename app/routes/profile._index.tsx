// /profile's index is its posts tab (SPEC §2).
export { default, loader, meta } from "./profile.posts";
