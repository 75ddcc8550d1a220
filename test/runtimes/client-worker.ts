/**
 * A client inside workerd: each request provisions `orders` on the server worker through the
 * `SERVER` service binding (its `fetch` is the client's `fetch`) and answers the tool's text.
 */
import { provision } from "../../examples/edge/client.js";

interface Env {
  readonly SERVER: { fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> };
}

export default {
  async fetch(_request: Request, env: Env): Promise<Response> {
    const text = await provision("http://127.0.0.1/mcp", "orders", "us-east-1", (input, init) =>
      env.SERVER.fetch(input, init),
    );
    return new Response(text);
  },
};
