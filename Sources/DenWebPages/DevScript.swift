/// den-dev.js: only on pages of `den serve --watch` / `den dev` (docs/HOT_SWAP.md). Listens to
/// the server's events: reloads the page when its module was swapped (the server has already
/// moved the screen's state to the new version), shows a build or swap error as a banner.
/// External and served by den, so the Content-Security-Policy stays `script-src 'self'`.
public enum DevScript {
    public static let path = "/_assets/den-dev.js"
    public static let eventsPath = "/_dev/events"
    /// The id of the banner the script shows build and swap errors in.
    public static let bannerID = "den-dev-banner"
    /// Set on `<html>` to "connected" while the page listens to the events, and to "reconnecting"
    /// while the browser tries again: a swap made before a page listens reloads nothing, so
    /// tools (and the browser test) wait for "connected".
    public static let stateAttribute = "data-den-dev"

    public static let text = """
    // den-dev.js: hot swap in development (docs/HOT_SWAP.md). Not served by plain den serve.
    (function () {
      "use strict";
      var script = document.currentScript;
      var moduleID = script ? (script.getAttribute("data-den-module") || "") : "";
      if (!window.EventSource) { return; }
      var source = new EventSource("\(eventsPath)");

      function banner(text) {
        var box = document.getElementById("\(bannerID)");
        if (!text) { if (box) { box.remove(); } return; }
        if (!box) {
          box = document.createElement("div");
          box.id = "\(bannerID)";
          box.className = "den-banner den-banner-error";
          box.setAttribute("role", "alert");
          var main = document.getElementById("\(PageRenderer.mainID)");
          (main || document.body).prepend(box);
        }
        box.style.whiteSpace = "pre-wrap";
        box.textContent = "Error: " + text;
      }

      var root = document.documentElement;
      source.addEventListener("open", function () { root.setAttribute("\(stateAttribute)", "connected"); });
      source.addEventListener("error", function () { root.setAttribute("\(stateAttribute)", "reconnecting"); });

      source.addEventListener("swap", function (event) {
        var data = JSON.parse(event.data);
        // A host screen (no module) may be served now: it reloads on any swap.
        if (!moduleID || data.modules.indexOf(moduleID) >= 0) { window.location.reload(); }
      });
      source.addEventListener("problem", function (event) { banner(JSON.parse(event.data).message); });
      source.addEventListener("clear", function () { banner(""); });
    })();

    """
}
