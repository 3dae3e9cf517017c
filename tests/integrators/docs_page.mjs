// The API reference as a partner's browser shows it: headless Chromium
// opens `/docs` with every request outside 127.0.0.1 refused, and the page
// must render every operation of the served document, with no failed
// request and no console error. A screenshot is saved.
//
// node docs_page.mjs BASE_URL SCREENSHOT_PATH
import { chromium } from "playwright-core";

const [base, screenshot] = process.argv.slice(2);
const executablePath = process.env.RISKINTEL_CHROMIUM || "/usr/bin/chromium";

const document = await (await fetch(`${base}/openapi.json`)).json();
const operationIds = Object.values(document.paths)
  .flatMap((item) => Object.values(item))
  .map((operation) => operation.operationId)
  .filter(Boolean);

const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const outside = [];
const failed = [];
const errors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" || url.protocol === "data:" || url.protocol === "blob:") {
      return route.continue();
    }
    outside.push(url.href);
    return route.abort();
  });
  page.on("requestfailed", (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));

  await page.goto(`${base}/docs`, { waitUntil: "networkidle" });
  // Rendered: every operation id in the DOM (Scalar's operation slugs).
  const missing = async () => {
    const html = await page.content();
    return operationIds.filter((id) => !html.includes(id));
  };
  const deadline = Date.now() + 30_000;
  let left = await missing();
  while (left.length > 0 && Date.now() < deadline) {
    await page.waitForTimeout(250);
    left = await missing();
  }
  await page.screenshot({ path: screenshot });
  const title = await page.title();
  console.log(
    JSON.stringify({ title, operations: operationIds.length, missing: left, outside, failed, errors }),
  );
  if (left.length > 0 || outside.length > 0 || failed.length > 0 || errors.length > 0) {
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
