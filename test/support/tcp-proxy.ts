import net from "node:net";

export type TcpProxy = {
  port: number;
  /** Resets every open connection (ECONNRESET on the server's side) and refuses new ones. */
  cut: () => void;
  /** Accepts connections again. */
  restore: () => void;
  close: () => Promise<void>;
};

/**
 * A TCP proxy to `target` that can reset every connection and refuse new ones until restored: the
 * database going away under a server (a failover, a network cut). PGlite runs inside the process,
 * with no connection to lose, so its users need DATABASE_URL.
 */
export async function proxyTo(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.resetAndDestroy();
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      down = true;
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      down = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A database URL of the test's own (ownDatabase's) reached through a new proxy: what the server is
 * given, and the proxy that cuts it.
 */
export async function proxiedDatabase(databaseUrl: string): Promise<{ url: string; proxy: TcpProxy }> {
  const own = new URL(databaseUrl);
  const proxy = await proxyTo({ host: own.hostname, port: Number(own.port || 5432) });
  const viaProxy = new URL(own);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  return { url: viaProxy.toString(), proxy };
}
