import { initials, type NameFields } from "~/lib/display-name";

export function Avatar({ user, size = 40 }: { user: NameFields & { avatar?: string | null }; size?: number }) {
  if (user.avatar) {
    return <img className="avatar" src={user.avatar} alt="" width={size} height={size} />;
  }
  return (
    <span
      className="avatar avatar-initials"
      style={{ width: size, height: size, fontSize: size * 0.4 }}
      aria-hidden="true"
    >
      {initials(user)}
    </span>
  );
}
