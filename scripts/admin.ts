import { closeDb, migrateToLatest } from "../app/server/platform/db.server";
import { listAdmins, setAdminByEmail } from "../app/server/accounts/admin.server";
import { listStarApplications, reviewStarApplication } from "../app/server/community/stars.server";

// Operator commands: `npm run admin -- <command> [args]` (see docs/OPERATIONS.md).
// With the default PGlite database (no DATABASE_URL), stop the server first: PGlite is one process.
// Everything here can also be done by an admin on /admin while the server runs.
const USAGE = `Usage: npm run admin -- <command>
  grant <email>                            make the account an admin (it may use /admin at once)
  revoke <email>                           take the admin role away
  admins                                   list the admins
  stars:list [pending|approved|rejected]   list Star applications
  stars:approve <username>                 approve an application (the trader appears on /stars)
  stars:reject <username>                  reject an application (the trader may apply again)`;

async function main(argv: string[]): Promise<number> {
  const [command, arg] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  await migrateToLatest();
  switch (command) {
    case "grant":
    case "revoke": {
      if (!arg) {
        console.error(`${command} needs an e-mail address.\n${USAGE}`);
        return 1;
      }
      const id = await setAdminByEmail(arg, command === "grant");
      if (id === null) {
        console.error(`No account with the e-mail "${arg}".`);
        return 1;
      }
      console.log(
        `${arg} (user ${id}): ${command === "grant" ? "admin; /admin is open to them now" : "no longer an admin"}.`,
      );
      return 0;
    }
    case "admins": {
      const rows = await listAdmins();
      if (!rows.length) console.log("No admins. Make one: npm run admin -- grant <email>");
      for (const r of rows) console.log(`${r.id} ${r.email}${r.username ? ` @${r.username}` : ""}`);
      return 0;
    }
    case "stars:list": {
      const status = arg as "pending" | "approved" | "rejected" | undefined;
      if (status && !["pending", "approved", "rejected"].includes(status)) {
        console.error(`Unknown status "${status}".`);
        return 1;
      }
      const rows = await listStarApplications(status);
      if (!rows.length) console.log("No applications.");
      for (const r of rows)
        console.log(
          `${r.status.padEnd(9)} ${r.username ?? `(no username, id ${r.id})`} <${r.email}> applied ${new Date(r.created_at).toISOString().slice(0, 10)}`,
        );
      return 0;
    }
    case "stars:approve":
    case "stars:reject": {
      if (!arg) {
        console.error(`${command} needs a username.\n${USAGE}`);
        return 1;
      }
      const status = command === "stars:approve" ? "approved" : "rejected";
      const id = await reviewStarApplication(arg, status);
      if (id === null) {
        console.error(`No Star application from "${arg}". See: npm run admin -- stars:list pending`);
        return 1;
      }
      console.log(`${arg} (user ${id}): ${status}.`);
      return 0;
    }
    default:
      console.error(`Unknown command "${command}".\n${USAGE}`);
      return 1;
  }
}

const code = await main(process.argv.slice(2));
await closeDb();
process.exit(code);
