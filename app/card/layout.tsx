// The performance card as a Satori element tree: pure (data in, element out), no I/O, no fonts.
// Satori understands a subset of CSS: every box with more than one child is display:flex, and
// padded boxes use boxSizing: border-box so their given size is their drawn size.
import type { ReactElement } from "react";
import { formatScore } from "~/lib/format-number";
import { DIMENSION_LABELS, DIMENSIONS } from "~/lib/vocabulary";

/** Bump when anything drawn changes: it is part of every card's content hash (new URLs). */
export const LAYOUT_VERSION = 9;

export const CARD_FORMATS = {
  link: { width: 1200, height: 630 },
  story: { width: 1080, height: 1350 },
} as const;
export type CardFormat = keyof typeof CARD_FORMATS;

export type CardFigure = { label: string; value: string; tone: "up" | "down" | "flat" };

export type CardData = {
  format: CardFormat;
  product: string;
  /** The name as it will be drawn (already checked against the bundled fonts by the renderer). */
  name: string;
  username: string | null;
  initials: string;
  /** A data: URI (PNG or JPEG) or null for the initials disc. */
  avatar: string | null;
  tier: string;
  tierColor: string;
  score: number;
  stars: {
    overall: number;
    profitability: number;
    riskControl: number;
    consistency: number;
    discipline: number;
    experience: number;
  };
  figures: CardFigure[];
  /** How the record compares with holding its benchmark, in plain words (the report's "Against the market"). */
  verdict: string | null;
  /** "Nov 22, 2026" */
  date: string;
  code: string;
  /** "grader.example/verify/GR-XXXX-XXXX" */
  verifyHost: string;
  /** The trader's privacy choice; with false every figure is a percentage or a ratio. */
  showAmounts: boolean;
  /** Graded from simulated provider histories: the card says "Demo data". */
  demo: boolean;
  /** Graded from an uploaded statement (DECISIONS 198): the card says "Self-reported". */
  selfReported: boolean;
};

const DEMO_MARK = "#fbbf24";

const INK = "#f4f6fb";
const MUTED = "#9aa3b8";
const BG = "#0c1222";
const PANEL = "#1a2133";
const UP = "#3ddc97";
const DOWN = "#ff6b6b";

const STAR_PATH = "M12 1.8l3.09 6.26 6.91 1-5 4.87 1.18 6.88L12 17.56l-6.18 3.25L7 13.93 2 9.06l6.91-1z";

/** Five stars as one <svg> (one Satori node instead of five). */
function StarRow({ count, size, color, gap }: { count: number; size: number; color: string; gap: number }) {
  const n = Math.max(0, Math.min(5, Math.round(count)));
  const step = 24 + (gap * 24) / size;
  return (
    <svg width={size * 5 + gap * 4} height={size} viewBox={`0 0 ${step * 4 + 24} 24`}>
      {[0, 1, 2, 3, 4].map((i) => (
        <path key={i} transform={`translate(${i * step} 0)`} d={STAR_PATH} fill={i < n ? color : "#2a3245"} />
      ))}
    </svg>
  );
}

function Shield({ size, color }: { size: number; color: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64">
      <path d="M32 3 57 12v18c0 16-11 27-25 31C18 57 7 46 7 30V12z" fill={color} fillOpacity={0.2} />
      <path
        d="M32 3 57 12v18c0 16-11 27-25 31C18 57 7 46 7 30V12z"
        fill="none"
        stroke={color}
        strokeWidth={4}
        strokeLinejoin="round"
      />
      <path d="m32 17 4.4 9 9.9 1.4-7.2 7 1.7 9.8L32 39.6l-8.8 4.6 1.7-9.8-7.2-7 9.9-1.4z" fill={color} />
    </svg>
  );
}

function Avatar({ data, size }: { data: CardData; size: number }) {
  const ring = {
    width: size,
    height: size,
    borderRadius: size / 2,
    borderWidth: 4,
    borderStyle: "solid" as const,
    borderColor: data.tierColor,
    boxSizing: "border-box" as const,
  };
  if (data.avatar) {
    return <img src={data.avatar} alt="" width={size} height={size} style={{ ...ring, objectFit: "cover" }} />;
  }
  return (
    <div
      style={{
        ...ring,
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        backgroundColor: "#1d2740",
        color: INK,
        fontSize: size * 0.38,
        fontWeight: 800,
      }}
    >
      {data.initials}
    </div>
  );
}

function Brand({ product, size }: { product: string; size: number }) {
  return (
    <div
      style={{
        display: "flex",
        alignItems: "center",
        gap: size * 0.4,
        fontSize: size,
        fontWeight: 800,
        color: INK,
        letterSpacing: 0.5,
      }}
    >
      <div
        style={{
          width: size * 1.3,
          height: size * 1.3,
          borderRadius: size * 0.3,
          backgroundColor: "#5b7cfa",
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          color: "#fff",
          fontSize: size * 0.85,
          letterSpacing: 0,
        }}
      >
        G
      </div>
      {product}
    </div>
  );
}

/** Name on one line, cut with an ellipsis when too long for its box. */
function NameBlock({ data, fontSize, maxWidth }: { data: CardData; fontSize: number; maxWidth: number }) {
  return (
    <div style={{ display: "flex", flexDirection: "column", maxWidth, minWidth: 0 }}>
      <div
        style={{
          display: "block",
          fontSize,
          fontWeight: 700,
          color: INK,
          maxWidth,
          whiteSpace: "nowrap",
          overflow: "hidden",
          textOverflow: "ellipsis",
          lineHeight: 1.2,
        }}
      >
        {data.name}
      </div>
      {data.username ? (
        <div
          style={{
            display: "block",
            fontSize: fontSize * 0.5,
            color: MUTED,
            maxWidth,
            whiteSpace: "nowrap",
            overflow: "hidden",
            textOverflow: "ellipsis",
          }}
        >{`@${data.username}`}</div>
      ) : null}
    </div>
  );
}

function TierBlock({ data, scale }: { data: CardData; scale: number }) {
  return (
    <div style={{ display: "flex", alignItems: "center", gap: 18 * scale }}>
      <Shield size={92 * scale} color={data.tierColor} />
      <div style={{ display: "flex", flexDirection: "column", gap: 6 * scale }}>
        <div style={{ display: "flex", fontSize: 60 * scale, fontWeight: 800, color: data.tierColor, lineHeight: 1 }}>
          {data.tier}
        </div>
        <div style={{ display: "flex", alignItems: "center", gap: 14 * scale, fontSize: 24 * scale, color: MUTED }}>
          <StarRow count={data.stars.overall} size={30 * scale} color={data.tierColor} gap={4 * scale} />
          {`Score ${formatScore(data.score)}/100`}
        </div>
      </div>
    </div>
  );
}

/** The plain-words comparison with the market; two lines at most, so a long benchmark name cannot push the figures off. */
function Verdict({
  text,
  fontSize,
  width,
  center,
}: {
  text: string;
  fontSize: number;
  width: number;
  center?: boolean;
}) {
  return (
    <div
      style={{
        display: "block",
        fontSize,
        color: INK,
        width,
        lineHeight: 1.3,
        maxHeight: fontSize * 1.3 * 2,
        overflow: "hidden",
        textAlign: center ? "center" : "left",
      }}
    >
      {text}
    </div>
  );
}

function Dimensions({ data, scale, width }: { data: CardData; scale: number; width: number }) {
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 10 * scale, width }}>
      {DIMENSIONS.map((key) => (
        <div
          key={key}
          style={{
            display: "flex",
            alignItems: "center",
            justifyContent: "space-between",
            fontSize: 22 * scale,
            color: INK,
          }}
        >
          {DIMENSION_LABELS[key]}
          <StarRow count={data.stars[key]} size={22 * scale} color={data.tierColor} gap={3 * scale} />
        </div>
      ))}
    </div>
  );
}

function Figure({ figure, scale, width }: { figure: CardFigure; scale: number; width: number }) {
  const color = figure.tone === "up" ? UP : figure.tone === "down" ? DOWN : INK;
  return (
    <div
      style={{
        display: "flex",
        flexDirection: "column",
        width,
        paddingTop: 12 * scale,
        paddingBottom: 12 * scale,
        paddingLeft: 16 * scale,
        paddingRight: 16 * scale,
        borderRadius: 14 * scale,
        backgroundColor: PANEL,
        boxSizing: "border-box",
        gap: 4 * scale,
        fontSize: 17 * scale,
        color: MUTED,
        whiteSpace: "nowrap",
      }}
    >
      {figure.label}
      <div
        style={{
          display: "block",
          fontSize: 32 * scale,
          fontWeight: 700,
          color,
          whiteSpace: "nowrap",
          overflow: "hidden",
          textOverflow: "ellipsis",
          maxWidth: width - 32 * scale,
        }}
      >
        {figure.value}
      </div>
    </div>
  );
}

function Footer({ data, fontSize }: { data: CardData; fontSize: number }) {
  return (
    <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", fontSize, color: MUTED }}>
      <div style={{ display: "flex", gap: 12 }}>
        {data.demo ? <div style={{ display: "flex", color: DEMO_MARK, fontWeight: 700 }}>Demo data</div> : null}
        {data.selfReported ? (
          <div style={{ display: "flex", color: DEMO_MARK, fontWeight: 700 }}>Self-reported</div>
        ) : null}
        <div style={{ display: "flex" }}>{`Graded ${data.date}`}</div>
      </div>
      <div style={{ display: "flex" }}>{`Verify ${data.code} at ${data.verifyHost}`}</div>
    </div>
  );
}

function Frame({ data, children }: { data: CardData; children: ReactElement | ReactElement[] }) {
  const { width, height } = CARD_FORMATS[data.format];
  return (
    <div
      style={{
        width,
        height,
        display: "flex",
        flexDirection: "column",
        backgroundColor: BG,
        fontFamily: "Inter",
        color: INK,
        padding: data.format === "link" ? 48 : 64,
        boxSizing: "border-box",
      }}
    >
      {children}
    </div>
  );
}

function Header({ product, brandSize, fontSize }: { product: string; brandSize: number; fontSize: number }) {
  return (
    <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", fontSize, color: MUTED }}>
      <Brand product={product} size={brandSize} />
      Performance card
    </div>
  );
}

function LinkCard({ data }: { data: CardData }) {
  // 1200 − 2 × 48 padding − 3 × 20 gaps, shared by four figures.
  const figureWidth = 261;
  return (
    <Frame data={data}>
      <Header product={data.product} brandSize={30} fontSize={20} />
      <div style={{ display: "flex", flexGrow: 1, marginTop: 30, gap: 48 }}>
        <div style={{ display: "flex", flexDirection: "column", width: 540, gap: 28 }}>
          <div style={{ display: "flex", alignItems: "center", gap: 22 }}>
            <Avatar data={data} size={104} />
            <NameBlock data={data} fontSize={42} maxWidth={400} />
          </div>
          <TierBlock data={data} scale={1} />
          {data.verdict ? <Verdict text={data.verdict} fontSize={21} width={540} /> : null}
        </div>
        <div style={{ display: "flex", flexDirection: "column", flexGrow: 1, justifyContent: "center" }}>
          <Dimensions data={data} scale={1} width={510} />
        </div>
      </div>
      <div style={{ display: "flex", gap: 20, marginBottom: 22 }}>
        {data.figures.slice(0, 4).map((f) => (
          <Figure key={f.label} figure={f} scale={1} width={figureWidth} />
        ))}
      </div>
      <Footer data={data} fontSize={19} />
    </Frame>
  );
}

function StoryCard({ data }: { data: CardData }) {
  const s = 1.45;
  return (
    <Frame data={data}>
      <Header product={data.product} brandSize={40} fontSize={26} />
      <div style={{ display: "flex", flexDirection: "column", alignItems: "center", marginTop: 32, gap: 18 }}>
        <Avatar data={data} size={150} />
        <div style={{ display: "flex", flexDirection: "column", alignItems: "center", maxWidth: 900 }}>
          <div
            style={{
              display: "block",
              fontSize: 64,
              fontWeight: 700,
              maxWidth: 900,
              whiteSpace: "nowrap",
              overflow: "hidden",
              textOverflow: "ellipsis",
              lineHeight: 1.2,
            }}
          >
            {data.name}
          </div>
          {data.username ? (
            <div
              style={{
                display: "block",
                fontSize: 30,
                color: MUTED,
                maxWidth: 900,
                whiteSpace: "nowrap",
                overflow: "hidden",
                textOverflow: "ellipsis",
              }}
            >{`@${data.username}`}</div>
          ) : null}
        </div>
        <TierBlock data={data} scale={s} />
        {data.verdict ? <Verdict text={data.verdict} fontSize={28} width={900} center /> : null}
      </div>
      <div style={{ display: "flex", justifyContent: "center", marginTop: 30 }}>
        <Dimensions data={data} scale={1.3} width={680} />
      </div>
      <div style={{ display: "flex", flexWrap: "wrap", gap: 24, marginTop: 30, justifyContent: "center" }}>
        {data.figures.slice(0, 4).map((f) => (
          <Figure key={f.label} figure={f} scale={1.35} width={464} />
        ))}
      </div>
      <div style={{ display: "flex", flexGrow: 1 }} />
      <div
        style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8, fontSize: 26, color: MUTED }}
      >
        {data.demo ? <div style={{ display: "flex", color: DEMO_MARK, fontWeight: 700 }}>Demo data</div> : null}
        {data.selfReported ? (
          <div style={{ display: "flex", color: DEMO_MARK, fontWeight: 700 }}>Self-reported</div>
        ) : null}
        <div style={{ display: "flex" }}>{`Graded ${data.date}`}</div>
        <div style={{ display: "flex" }}>{`Verify ${data.code} at ${data.verifyHost}`}</div>
      </div>
    </Frame>
  );
}

/** The element tree Satori lays out for one card. */
export function cardElement(data: CardData): ReactElement {
  return data.format === "story" ? <StoryCard data={data} /> : <LinkCard data={data} />;
}
