// browser.js — one user's session in a live notebook server, in headless Chromium through puppeteer-core:
// opens the notebook, clears its stored outputs, runs the cells named on the command line by clicking
// each one and pressing Shift-Enter, waits for their outputs, and takes a screenshot.
// usage: node browser.js CHROMIUM URL SCREENSHOT CELL... (a CELL is the start of a code cell's source)
// Prints one JSON object: for each cell, the text of its output area, whether it holds a tensor's table
// and an inline PNG (and its size as shown); or {"error": ...}.
const puppeteer = require("puppeteer-core");

const [chromium, url, screenshot, ...cells] = process.argv.slice(2);

async function main() {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    defaultViewport: { width: 1000, height: 1900 },
  });
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "networkidle2", timeout: 60000 });
    // the kernel is started by the page: wait until it is connected and idle
    await page.waitForFunction(
      () => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected() &&
        document.querySelector("#kernel_indicator_icon.kernel_idle_icon"),
      { timeout: 60000 });
    await page.evaluate(() => Jupyter.notebook.clear_all_output());
    const results = [];
    for (const start of cells) {
      const index = await page.evaluate((start) =>
        Jupyter.notebook.get_cells().findIndex((c) => c.cell_type === "code" && c.get_text().startsWith(start)), start);
      if (index < 0) throw new Error(`no code cell starts with ${JSON.stringify(start)}`);
      const cell = (await page.$$(".cell"))[index];
      await cell.$eval(".input_area", (e) => e.scrollIntoView());
      await (await cell.$(".input_area")).click();
      await page.keyboard.down("Shift");
      await page.keyboard.press("Enter");
      await page.keyboard.up("Shift");
      // done when the cell's prompt shows its execution count, its output has come (each cell run
      // here shows one; the prompt alone was once read before the output was on the page) and the
      // kernel is idle again
      await page.waitForFunction((i) => {
        const c = Jupyter.notebook.get_cell(i);
        return typeof c.input_prompt_number === "number" && c.output_area.outputs.length > 0 &&
          document.querySelector("#kernel_indicator_icon.kernel_idle_icon");
      }, { timeout: 60000 }, index);
      results.push(await cell.evaluate((e) => {
        const img = e.querySelector(".output_area img[src^='data:image/png;base64,']");
        return {
          prompt: e.querySelector(".input_prompt").innerText.replace(/\s+/g, " ").trim(),
          text: e.querySelector(".output_wrapper").innerText,
          table: !!e.querySelector(".output_area table.tl-tensor"),
          caption: (e.querySelector(".output_area table.tl-tensor caption") || {}).innerText || null,
          png: img ? [img.naturalWidth, img.naturalHeight] : null,
        };
      }));
    }
    // the screenshot shows the first cell run and what follows it
    const first = await page.evaluate((start) =>
      Jupyter.notebook.get_cells().findIndex((c) => c.get_text().startsWith(start)), cells[0]);
    await (await page.$$(".cell"))[first].evaluate((e) => e.scrollIntoView());
    await page.screenshot({ path: screenshot });
    console.log(JSON.stringify({ cells: results }));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.log(JSON.stringify({ error: String(e && e.stack || e) }));
  process.exit(1);
});
