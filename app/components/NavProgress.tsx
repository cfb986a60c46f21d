import { useNavigation } from "@remix-run/react";

// A thin bar while a page loads on demand (PRODUCT §2: pages load with a loading indicator).
export function NavProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div
      className={`nav-progress${busy ? " is-busy" : ""}`}
      role="progressbar"
      aria-hidden={!busy}
      aria-label="Loading page"
    />
  );
}
