/// den.js: live fields. A field marked `data-den-change` posts the page's form to `/_change`
/// as the user types (debounced), and the answer's `<main id="den-main">` replaces the page's,
/// with focus, caret and what the user typed kept. Progressive enhancement: without it the page
/// still works, because every button submits the whole form.
///
/// The names come from `FormNames` and `PageRenderer`, so the page, the script and the server
/// cannot drift apart.
enum PageScript {
    static let debounceMilliseconds = 250

    static let text = """
    // den.js: live fields for Den's pages (docs/WEB.md, "Pages"). No inline script is needed.
    (function () {
      "use strict";
      var MAIN_ID = "\(PageRenderer.mainID)";
      var CHANGE_PATH = "\(FormNames.changePath)";
      var FIELD_NAME = "\(FormNames.field)";
      var DELAY = \(debounceMilliseconds);

      var timer = null;
      var request = null;
      var sequence = 0;

      function liveField(target) {
        return target && target.form && target.hasAttribute && target.hasAttribute("data-den-change")
          ? target : null;
      }

      function schedule(event) {
        var field = liveField(event.target);
        if (!field || !window.fetch || !window.URLSearchParams) { return; }
        clearTimeout(timer);
        // Looked up again when the timer fires: a swap in between replaces the element.
        var id = field.id;
        timer = setTimeout(function () { send(liveField(document.getElementById(id))); }, DELAY);
      }
      document.addEventListener("input", schedule);
      // Some ways of choosing an option fire only `change`; both at once still send once.
      document.addEventListener("change", function (event) {
        if (event.target && event.target.tagName === "SELECT") { schedule(event); }
      });

      // A submit (a button, or Enter) wins over a change still waiting or under way.
      document.addEventListener("submit", function () {
        clearTimeout(timer);
        sequence += 1;
        if (request) { request.abort(); }
      });

      function send(field) {
        if (!field) { return; }
        var form = field.form;
        var body = new URLSearchParams(new FormData(form));
        body.set(FIELD_NAME, field.getAttribute("data-den-change"));
        if (request) { request.abort(); }
        request = window.AbortController ? new AbortController() : null;
        var mine = ++sequence;
        fetch(CHANGE_PATH, {
          method: "POST",
          body: body,
          credentials: "same-origin",
          headers: { "Accept": "text/html" },
          signal: request ? request.signal : undefined
        }).then(function (response) {
          if (mine !== sequence) { return null; }
          // The change led elsewhere (the server answered a navigation with a redirect): go
          // there for real, so the address bar and history name the screen shown.
          if (response.redirected) {
            window.location.assign(response.url);
            return null;
          }
          return response.text();
        }).then(function (html) {
          if (html === null || mine !== sequence) { return; }
          // The answer is a bare <main> or an error page: either way its #den-main is what to
          // show (an error page has one too, so the error shows in place).
          var parsed = new DOMParser().parseFromString(html, "text/html");
          var main = parsed.getElementById(MAIN_ID);
          if (main) { swap(document.adoptNode(main)); }
        }).catch(function () {
          // Aborted or offline: the page stays as it is and its buttons still submit.
        });
      }

      function swap(main) {
        var old = document.getElementById(MAIN_ID);
        if (!old) { return; }
        var active = document.activeElement;
        var kept = null;
        if (active && old.contains(active) && active.id) {
          kept = { id: active.id, value: active.value, start: null, end: null, direction: null };
          try {
            kept.start = active.selectionStart;
            kept.end = active.selectionEnd;
            kept.direction = active.selectionDirection;
          } catch (ignored) { /* a <select> has no caret */ }
        }
        // Passwords never come back from the server: carry over what the user typed.
        var secrets = {};
        Array.prototype.forEach.call(old.querySelectorAll("input[type=password]"), function (input) {
          secrets[input.name] = input.value;
        });
        old.replaceWith(main);
        Array.prototype.forEach.call(main.querySelectorAll("input[type=password]"), function (input) {
          if (Object.prototype.hasOwnProperty.call(secrets, input.name)) { input.value = secrets[input.name]; }
        });
        if (!kept) { return; }
        var field = document.getElementById(kept.id);
        if (!field) { return; }
        // The user may have typed (or chosen) on while the answer was under way: their value
        // wins in the field they are in (its own change is sent after the next pause).
        if (field.value !== kept.value) {
          if (field.tagName === "INPUT") {
            field.value = kept.value;
          } else if (field.tagName === "SELECT" &&
                     Array.prototype.some.call(field.options, function (o) { return o.value === kept.value; })) {
            field.value = kept.value;
          }
        }
        field.focus({ preventScroll: true });
        if (kept.start !== null && typeof field.setSelectionRange === "function") {
          try { field.setSelectionRange(kept.start, kept.end, kept.direction || "none"); } catch (ignored) { }
        }
      }
    })();

    """
}
