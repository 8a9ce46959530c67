/// The console's stylesheet and script, served from the binary (no CDN, no build step). The
/// script only reads the page and builds elements with `textContent`, never HTML from text.
enum ConsoleAssets {
    static let css = """
        :root { color-scheme: light; font-family: system-ui, sans-serif; font-size: 14px; color: #1d1d1f; }
        body { margin: 0; background: #f6f6f7; }
        header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; background: #22303c; color: #fff; }
        header a.home { color: #fff; font-weight: 600; text-decoration: none; }
        header form { display: flex; gap: .4rem; margin: 0; }
        header #search { flex: 1; }
        header #q { flex: 1; min-width: 16rem; }
        main { padding: 1rem 1.5rem; max-width: 90rem; }
        h1 { font-size: 1.4rem; word-break: break-all; }
        h2 { font-size: 1.1rem; margin-top: 1.6rem; }
        section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .2rem 1rem 1rem; margin-bottom: 1rem; }
        table { border-collapse: collapse; margin: .5rem 0; width: 100%; }
        th, td { border-bottom: 1px solid #e4e4e7; padding: .3rem .5rem; text-align: left; vertical-align: top; word-break: break-word; }
        th { background: #f0f0f2; font-weight: 600; }
        tr.empty td { color: #777; font-style: italic; }
        td.status { white-space: nowrap; }
        td.code { font-family: ui-monospace, monospace; color: #a01d1d; }
        #flash { background: #e8f4ea; border: 1px solid #9bc9a3; padding: .5rem .8rem; border-radius: 4px; }
        .error, #error { background: #fbeaea; border: 1px solid #e0a1a1; padding: .5rem .8rem; border-radius: 4px; }
        ol#timeline li, ol#lookup-steps li { margin: .2rem 0; }
        .kind { font-family: ui-monospace, monospace; background: #eef; padding: 0 .3rem; border-radius: 3px; }
        .filters button { margin-right: .3rem; }
        .filters button[aria-pressed="false"] { opacity: .5; }
        #balance-chart svg { width: 100%; max-width: 40rem; height: auto; background: #fff; }
        #balance-chart .axis { stroke: #999; stroke-width: 1; }
        #balance-chart .zero { stroke: #c33; stroke-dasharray: 4 3; }
        #balance-chart text { font-size: 11px; fill: #444; }
        form#login { display: grid; gap: .5rem; max-width: 22rem; }
        """

    static let javaScript = """
        // The ledger console's only script. It reads the page and adds elements with
        // textContent; it never turns text into HTML.
        "use strict";
        document.addEventListener("DOMContentLoaded", () => {
          // Each time's title says it in the operator's own time zone.
          for (const time of document.querySelectorAll("time[datetime]")) {
            const date = new Date(time.getAttribute("datetime"));
            if (!Number.isNaN(date.getTime())) time.title = date.toLocaleString();
          }
          // Filters for the timeline: show or hide each kind of entry.
          const timeline = document.getElementById("timeline");
          if (!timeline) return;
          const sources = [...new Set([...timeline.children].map((entry) => entry.dataset.source))];
          if (sources.length < 2) return;
          const bar = document.createElement("p");
          bar.className = "filters";
          bar.append("Show: ");
          for (const source of sources) {
            const button = document.createElement("button");
            button.type = "button";
            button.textContent = source;
            button.setAttribute("aria-pressed", "true");
            button.addEventListener("click", () => {
              const shown = button.getAttribute("aria-pressed") !== "true";
              button.setAttribute("aria-pressed", String(shown));
              for (const entry of timeline.children) {
                if (entry.dataset.source === source) entry.hidden = !shown;
              }
            });
            bar.append(button);
          }
          timeline.before(bar);
        });
        """
}
