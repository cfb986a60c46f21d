export type Network = "twitter" | "facebook" | "reddit" | "instagram";

/**
 * A share network's mark as inline SVG (no request, no third-party script). Decorative: the link or
 * button holding it carries the network's name (aria-label, title) so assistive tech reads a name.
 */
export function BrandIcon({ network, size = 22 }: { network: Network; size?: number }) {
  const common = {
    width: size,
    height: size,
    viewBox: "0 0 24 24",
    "aria-hidden": true,
    focusable: false,
    className: "brand-icon",
  } as const;
  switch (network) {
    case "twitter":
      return (
        <svg {...common} fill="currentColor">
          <path d="M18.9 1.15h3.68l-8.04 9.19L24 22.85h-7.41l-5.8-7.59-6.64 7.59H.47l8.6-9.83L0 1.15h7.6l5.24 6.93 6.06-6.93Zm-1.29 19.5h2.04L6.49 3.24H4.3l13.31 17.41Z" />
        </svg>
      );
    case "facebook":
      return (
        <svg {...common}>
          <circle cx="12" cy="12" r="12" fill="#1877F2" />
          <path
            fill="#fff"
            d="M13.4 24v-8.4h2.8l.45-3.3H13.4v-2.1c0-.95.27-1.6 1.64-1.6h1.72V5.65a23 23 0 0 0-2.5-.13c-2.48 0-4.18 1.51-4.18 4.3v2.48H7.28v3.3h2.8V24Z"
          />
        </svg>
      );
    case "reddit":
      return (
        <svg {...common}>
          <circle cx="12" cy="12" r="12" fill="#FF4500" />
          <ellipse cx="12" cy="14" rx="6.5" ry="4.3" fill="#fff" />
          <circle cx="17.9" cy="10.9" r="1.5" fill="#fff" />
          <circle cx="6.1" cy="10.9" r="1.5" fill="#fff" />
          <circle cx="16.2" cy="5.6" r="1.3" fill="#fff" />
          <path d="M12 9.7 13.1 5l3.1.6" stroke="#fff" strokeWidth="0.9" fill="none" />
          <circle cx="9.6" cy="13.3" r="1" fill="#FF4500" />
          <circle cx="14.4" cy="13.3" r="1" fill="#FF4500" />
          <path d="M9.6 15.9c1.4.9 3.4.9 4.8 0" stroke="#FF4500" strokeWidth="0.9" fill="none" strokeLinecap="round" />
        </svg>
      );
    case "instagram":
      return (
        <svg {...common} fill="none" stroke="#E4405F" strokeWidth="2">
          <rect x="2" y="2" width="20" height="20" rx="5.5" />
          <circle cx="12" cy="12" r="4.5" />
          <circle cx="17.6" cy="6.4" r="1" fill="#E4405F" stroke="none" />
        </svg>
      );
  }
}
