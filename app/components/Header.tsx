import { Form, Link } from "@remix-run/react";
import type { PublicUser } from "~/server/accounts/users.server";
import { displayName } from "~/lib/display-name";
import { useRootData } from "~/lib/use-root-data";
import { Avatar } from "./Avatar";
import { GetGradeButton } from "./GetGradeButton";
import { MyCurrentGrade } from "./LatestGrade";
import { Logo } from "./Logo";
import { NotificationBell } from "./NotificationBell";
import { ShareButton } from "./ShareButton";
import { TraderSearch } from "./TraderSearch";

const visitorLinks = [
  { href: "/#how-it-works", label: "How it works" },
  { href: "/#features", label: "Features" },
  { href: "/#roadmap", label: "Roadmap" },
  { href: "/white-paper", label: "White Paper" },
  { href: "/airdrop", label: "Airdrop" },
  { href: "/blogs", label: "Blogs" },
];

/** Grader's own social accounts (SOCIAL_*_URL); none configured, none shown. */
export function useSocialLinks() {
  return useRootData()?.ENV.SOCIAL ?? [];
}

// The logo goes to /community when logged in, else / (PRODUCT §2). Menus are <details> elements,
// so they open and close without JavaScript. Landing anchors are router Links: a plain same-page
// "#hash" link fires popstate, and the router's scroll restoration would then undo the jump.
export type HeaderGrade = {
  tier: string | null;
  stars: number;
  score: number | null;
  createdAt: string;
  verificationCode: string;
} | null;

export function Header({
  user,
  grade,
  unread = 0,
  admin = false,
}: {
  user: PublicUser | null;
  grade: HeaderGrade;
  unread?: number;
  admin?: boolean;
}) {
  return (
    <header className="site-header">
      <div className="header-inner">
        <Logo to={user ? "/community" : "/"} />
        {user ? <MemberNav user={user} grade={grade} unread={unread} admin={admin} /> : <VisitorNav />}
      </div>
    </header>
  );
}

// Rendered twice (desktop bar and the mobile menu), which CSS shows one of.
function VisitorLinks() {
  return (
    <>
      {visitorLinks.map((l) => (
        <Link key={l.href} to={l.href}>
          {l.label}
        </Link>
      ))}
    </>
  );
}

function AuthButtons() {
  return (
    <>
      <Link to="/signin" className="btn btn-ghost">
        Log in
      </Link>
      <Link to="/signup" className="btn btn-primary">
        Join us for free
      </Link>
    </>
  );
}

function VisitorNav() {
  const socialLinks = useSocialLinks();
  return (
    <>
      <nav aria-label="Main" className="nav-desktop">
        <VisitorLinks />
      </nav>
      <div className="header-actions nav-desktop">
        <AuthButtons />
      </div>
      <details className="hamburger">
        <summary>
          <span className="visually-hidden">Menu</span>
          <span className="hamburger-icon" aria-hidden="true" />
        </summary>
        <nav aria-label="Mobile" className="mobile-menu">
          <VisitorLinks />
          <div className="mobile-social">
            {socialLinks.map((s) => (
              <a key={s.href} href={s.href} rel="noopener noreferrer" target="_blank">
                {s.short}
              </a>
            ))}
          </div>
          <AuthButtons />
        </nav>
      </details>
    </>
  );
}

function MemberNav({
  user,
  grade,
  unread,
  admin,
}: {
  user: PublicUser;
  grade: HeaderGrade;
  unread: number;
  admin: boolean;
}) {
  const profileHref = user.is_star ? "/profile" : "/evaluate";
  return (
    <>
      <TraderSearch />
      <div className="header-actions">
        {/* Phones: the search box would be a sliver beside the buttons; the search page has it whole. */}
        <Link to="/search" className="btn btn-ghost header-icon header-search-link" aria-label="Search traders">
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
            <path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        </Link>
        <GetGradeButton linked={Boolean(user.platform_name)} graded={user.is_star} />
        <ShareButton user={user} />
        <NotificationBell unread={unread} />
        <details className="user-menu">
          <summary>
            <span className="visually-hidden">Account menu: </span>
            <Avatar user={user} size={32} />
            <span className="nav-desktop">{displayName(user) || user.email}</span>
          </summary>
          <div className="menu-panel" role="menu">
            {user.is_star && grade?.tier ? <MyCurrentGrade grade={grade} /> : null}
            <Link role="menuitem" to={profileHref}>
              Profile
            </Link>
            <Link role="menuitem" to="/user/settings" className="nav-desktop-block">
              Settings
            </Link>
            <Link role="menuitem" to="/portal/settings" className="nav-mobile-block">
              Settings
            </Link>
            {/* Phones: the header has no room for the Share button; the share page does the same job. */}
            <Link role="menuitem" to="/share" className="nav-mobile-block">
              Share my card
            </Link>
            <Link role="menuitem" to="/community">
              Community
            </Link>
            <Link role="menuitem" to="/clubs">
              Clubs
            </Link>
            <Link role="menuitem" to="/messages">
              Messages
            </Link>
            <Link role="menuitem" to="/notifications">
              Notifications
            </Link>
            <Link role="menuitem" to="/market/traders">
              Market
            </Link>
            {admin ? (
              <Link role="menuitem" to="/admin">
                Admin
              </Link>
            ) : null}
            <Form method="post" action="/logout">
              <button type="submit" role="menuitem" className="menu-button">
                Logout
              </button>
            </Form>
          </div>
        </details>
      </div>
    </>
  );
}
