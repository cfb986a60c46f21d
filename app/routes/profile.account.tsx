import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Linked accounts · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Linked accounts</h2>
      <EmptyState title="No linked accounts" action={<Link to="/evaluate" className="btn btn-primary">Get Grade</Link>}>
        Link a broker through Plaid, or prove a MetaMask or Phantom wallet by signing a message. Linked accounts are listed here, where you can also unlink them.
      </EmptyState>
    </section>
  );
}
