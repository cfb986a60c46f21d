import { Link } from "@remix-run/react";
import { useSocialLinks } from "./Header";
import { LogoMark } from "./Logo";

export function Footer({ supportEmail }: { supportEmail?: string }) {
  const socialLinks = useSocialLinks();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <LogoMark size={24} /> <strong>Grader</strong>
          <p className="muted">Real trading performance, graded and provable.</p>
        </div>
        <nav aria-label="Footer" className="footer-links">
          <Link to="/privacy">Privacy</Link>
          <Link to="/terms">Terms</Link>
          <Link to="/contact">Contact</Link>
          <Link to="/blogs">Blogs</Link>
          <Link to="/white-paper">White Paper</Link>
          <Link to="/pricing">Pricing</Link>
        </nav>
        {socialLinks.length ? (
          <nav aria-label="Social" className="footer-social">
            {socialLinks.map((s) => (
              <a key={s.href} href={s.href} rel="noopener noreferrer" target="_blank">
                {s.label}
              </a>
            ))}
          </nav>
        ) : null}
      </div>
      <p className="footer-note muted">
        {supportEmail ? (
          <>
            Support: <a href={`mailto:${supportEmail}`}>{supportEmail}</a> ·{" "}
          </>
        ) : null}
        Nothing on Grader is investment advice. © {new Date().getUTCFullYear()} Grader
      </p>
    </footer>
  );
}
