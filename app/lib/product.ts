/** The product's name as drawn on cards and written in share texts. */
export const PRODUCT_NAME = "Grader";
/** Who a card or verification page names when the trader has no drawable name. */
export const NAMELESS_TRADER = `${PRODUCT_NAME} trader`;
