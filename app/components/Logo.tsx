export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <path
        d="M32 4 56 13v17c0 15-10 26-24 30C18 56 8 45 8 30V13z"
        fill="none"
        stroke="#f5c542"
        strokeWidth="5"
        strokeLinejoin="round"
      />
      <path
        d="m21 32 8 8 15-16"
        fill="none"
        stroke="#f5c542"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo({ to }: { to: string }) {
  return (
    <a href={to} className="logo" aria-label="Grader home">
      <LogoMark />
      <span className="logo-word">Grader</span>
    </a>
  );
}
