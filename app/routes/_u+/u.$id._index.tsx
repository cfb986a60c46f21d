// /u/:id's index is its posts tab.
export { default, loader, meta } from "./u.$id.posts";
