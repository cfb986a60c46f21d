import { createContext, useContext, useEffect, useState } from "react";
import { deviceClassFromWidth, isMobileWidth, type DeviceClass } from "./device-class";

type Device = { device: DeviceClass; isMobile: boolean };
const DeviceContext = createContext<Device>({ device: "pc", isMobile: false });

// The server guesses from the User-Agent; the browser corrects by its real width.
export function DeviceProvider({ initial, children }: { initial: DeviceClass; children: React.ReactNode }) {
  const [state, setState] = useState<Device>({
    device: initial,
    isMobile: initial === "mobile" || initial === "watch",
  });
  useEffect(() => {
    const update = () => {
      const w = window.innerWidth;
      setState((s) => {
        const next = { device: deviceClassFromWidth(w), isMobile: isMobileWidth(w) };
        return s.device === next.device && s.isMobile === next.isMobile ? s : next;
      });
    };
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return <DeviceContext.Provider value={state}>{children}</DeviceContext.Provider>;
}

export const useDevice = () => useContext(DeviceContext);
