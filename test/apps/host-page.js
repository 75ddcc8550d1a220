// The host side of MCP Apps in a web page, for the browser test: ext-apps' AppBridge speaks the
// host's half of the postMessage protocol to a view rendered in a sandboxed iframe. Bundled for the
// browser with esbuild; the page's Node side (the test) reaches the MCP server with a tsmcp Client,
// through the functions it exposes on `window` (`hostCallTool`, `hostLog`).
// Spec: https://modelcontextprotocol.io/extensions/apps/overview (Sandbox proxy, Lifecycle).
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

/** The Content-Security-Policy a host builds from a UI resource's `_meta.ui.csp` (the spec's defaults). */
function policyOf(csp) {
  const resources = (csp?.resourceDomains ?? []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${(csp?.connectDomains ?? []).join(" ") || "'none'"}`,
    `frame-src ${(csp?.frameDomains ?? []).join(" ") || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp?.baseUriDomains ?? []).join(" ") || "'self'"}`,
  ].join("; ");
}

/** The view's HTML with the policy in a meta element at the top of its head. */
function withPolicy(html, csp) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policyOf(csp)}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`) : meta + html;
}

/**
 * Renders a tool's UI: `{ html, ui, tool, toolArguments, toolResult }` (the UI resource read by the
 * host, the tool definition, the call's arguments and result). Resolves once the view initialized.
 */
window.renderApp = async ({ html, ui, tool, toolArguments, toolResult }) => {
  const iframe = document.createElement("iframe");
  iframe.id = "view";
  // The view gets scripts only: an opaque origin, no access to the host page.
  iframe.setAttribute("sandbox", "allow-scripts");
  document.body.appendChild(iframe);

  const bridge = new AppBridge(
    null,
    { name: "tsmcp-test-host", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    { hostContext: { theme: "light", displayMode: "inline", toolInfo: { tool } } },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onloggingmessage = (params) => window.hostLog(JSON.stringify(params));
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = withPolicy(html, ui?.csp);
  await initialized;
  await bridge.sendToolInput({ arguments: toolArguments });
  await bridge.sendToolResult(toolResult);
  window.appBridge = bridge;
};
