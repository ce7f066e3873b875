/// den.css: one small stylesheet for every page. System fonts, one readable column, colours
/// with at least 4.5:1 contrast in light and dark schemes, a visible focus ring, and layouts
/// that hold at 360 px (tables turn into one block per row there). Class names are the ones
/// the markup types use (`den-…`).
enum PageStylesheet {
    static let text = """
    /* den.css: Den's pages (docs/WEB.md, "Pages"). No external assets. */
    :root {
      --den-text: #1b1f24;
      --den-quiet: #57606a;
      --den-back: #ffffff;
      --den-panel: #f6f8fa;
      --den-line: #d0d7de;
      --den-accent: #0a58ca;
      --den-accent-text: #ffffff;
      --den-danger: #b42318;
      --den-focus: #c2410c;
      --den-info: #e7f0ff;
      --den-success: #e6f4ea;
      --den-warning: #fff4d6;
      --den-error: #fde8e7;
      color-scheme: light dark;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --den-text: #e6edf3;
        --den-quiet: #a4afba;
        --den-back: #0d1117;
        --den-panel: #161b22;
        --den-line: #3d444d;
        --den-accent: #4c9aff;
        --den-accent-text: #0d1117;
        --den-danger: #ff8078;
        --den-focus: #ffa657;
        --den-info: #102a4c;
        --den-success: #0f2e1c;
        --den-warning: #3a2a05;
        --den-error: #44140f;
      }
    }

    *, *::before, *::after { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
    body {
      margin: 0;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
      font-size: 1rem;
      line-height: 1.5;
      color: var(--den-text);
      background: var(--den-back);
      overflow-wrap: anywhere;
    }
    code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }

    .den-header, main, .den-footer { max-width: 44rem; margin: 0 auto; padding: 0 1rem; }
    .den-header { padding-top: 0.75rem; padding-bottom: 0.75rem; border-bottom: 1px solid var(--den-line); }
    .den-home { font-weight: 700; text-decoration: none; color: var(--den-text); }
    /* The app bar: entries in a row; below 32rem a "Menu" toggle (a checkbox, no script) opens them. */
    .den-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 1rem; }
    .den-nav { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 1rem; flex: 1 1 auto; }
    .den-nav-items { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0; }
    .den-nav a { display: inline-block; padding: 0.375rem 0.125rem; }
    .den-nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
    .den-nav-login { color: var(--den-quiet); font-size: 0.875rem; }
    .den-account { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; margin-left: auto; }
    .den-user { font-weight: 600; }
    .den-logout { margin: 0; }
    .den-logout .den-button { min-height: 2.25rem; padding: 0.25rem 0.75rem; font-weight: 500; }
    .den-menu-toggle { position: absolute; opacity: 0; width: 1px; height: 1px; }
    .den-menu-button { display: none; }
    .den-menu-toggle:focus-visible + .den-menu-button { outline: 3px solid var(--den-focus); outline-offset: 2px; }
    main { padding-top: 1rem; padding-bottom: 2rem; }
    .den-footer { padding-bottom: 1.5rem; color: var(--den-quiet); font-size: 0.875rem; }

    h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
    h2 { font-size: 1.25rem; line-height: 1.3; margin: 1.5rem 0 0.5rem; }
    h3 { font-size: 1.05rem; margin: 1rem 0 0.25rem; }
    p { margin: 0.5rem 0; }
    /* Module text keeps its line breaks, as in the terminal. */
    .den-text, .den-banner-text, .den-field-error, td { white-space: pre-line; }
    .den-emphasis em { font-style: normal; font-weight: 650; font-size: 1.2rem; }
    .den-caption, .den-back-to, .den-status { color: var(--den-quiet); }
    .den-unsupported { color: var(--den-quiet); font-style: italic; }

    a { color: var(--den-accent); text-underline-offset: 0.15em; }
    a:hover { text-decoration-thickness: 2px; }
    :focus-visible { outline: 3px solid var(--den-focus); outline-offset: 2px; border-radius: 2px; }

    .den-field { margin: 1rem 0; }
    .den-field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
    .den-field input, .den-field select {
      display: block;
      width: 100%;
      max-width: 24rem;
      min-height: 2.75rem;
      padding: 0.5rem 0.625rem;
      font: inherit;
      color: var(--den-text);
      background: var(--den-back);
      border: 1px solid var(--den-quiet);
      border-radius: 6px;
    }
    .den-field-invalid input, .den-field-invalid select { border: 2px solid var(--den-danger); }
    .den-field-error { color: var(--den-danger); font-weight: 600; margin: 0.25rem 0 0; }

    .den-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 1.25rem 0; }
    .den-button {
      min-height: 2.75rem;
      padding: 0.5rem 1rem;
      font: inherit;
      font-weight: 600;
      border-radius: 6px;
      border: 1px solid var(--den-line);
      background: var(--den-panel);
      color: var(--den-text);
      cursor: pointer;
    }
    .den-button:hover { border-color: var(--den-quiet); }
    .den-primary { background: var(--den-accent); border-color: var(--den-accent); color: var(--den-accent-text); }
    .den-destructive { color: var(--den-danger); border-color: var(--den-danger); }
    .den-back { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; margin: 0 0 0.5rem; }
    .den-back .den-button { min-height: 2.25rem; padding: 0.25rem 0.75rem; font-weight: 500; }
    .den-back-to { font-size: 0.875rem; }

    .den-banner {
      margin: 0.75rem 0;
      padding: 0.75rem 1rem;
      border-radius: 6px;
      border-left: 4px solid var(--den-line);
      background: var(--den-info);
    }
    .den-banner-info { border-left-color: var(--den-accent); }
    .den-banner-success { background: var(--den-success); border-left-color: #1a7f37; }
    .den-banner-warning { background: var(--den-warning); border-left-color: #9a6700; }
    .den-banner-error { background: var(--den-error); border-left-color: var(--den-danger); }
    .den-banner p, .den-banner ul { margin: 0; }
    .den-open-urls ul { padding-left: 1.25rem; }

    .den-list ul { list-style: none; margin: 0.5rem 0; padding: 0; border-top: 1px solid var(--den-line); }
    .den-list li { border-bottom: 1px solid var(--den-line); }
    .den-list li > a, .den-list li > span:first-child { display: block; padding: 0.625rem 0.25rem; }
    .den-list li > span.den-item-detail { display: block; padding: 0 0.25rem 0.625rem; }
    .den-list li > span:first-child:not(:last-child) { padding-bottom: 0; }
    .den-list li > a { text-decoration: none; }
    .den-list li > a .den-item-title { text-decoration: underline; text-underline-offset: 0.15em; }
    .den-item-title { font-weight: 600; }
    .den-item-detail { display: block; color: var(--den-quiet); font-size: 0.9rem; }
    .den-empty { color: var(--den-quiet); }

    .den-table { overflow-x: auto; margin: 1rem 0; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 0.5rem 0.625rem; border-bottom: 1px solid var(--den-line); vertical-align: top; }
    th { font-weight: 600; background: var(--den-panel); }

    .den-error-page h1 { margin-top: 0.25rem; }
    .den-status { margin-top: 1.5rem; font-weight: 600; }

    .den-visually-hidden {
      position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
      overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
    }

    /* Phones: each table row becomes a block of "column: value" lines. */
    @media (max-width: 32rem) {
      h1 { font-size: 1.4rem; }
      .den-bar { justify-content: space-between; }
      .den-menu-button {
        display: inline-block; min-height: 2.75rem; padding: 0.5rem 1rem; font-weight: 600; cursor: pointer;
        border: 1px solid var(--den-line); border-radius: 6px; background: var(--den-panel);
      }
      .den-menu-button::after { content: " ▾"; }
      .den-menu-toggle:checked + .den-menu-button::after { content: " ▴"; }
      .den-nav { display: none; flex-basis: 100%; flex-direction: column; align-items: stretch; gap: 0; }
      .den-menu-toggle:checked ~ .den-nav { display: flex; }
      .den-nav-items { flex-direction: column; gap: 0; }
      .den-nav-items li, .den-account { border-top: 1px solid var(--den-line); }
      .den-nav a { display: block; padding: 0.625rem 0.25rem; }
      .den-account { margin-left: 0; padding: 0.5rem 0.25rem; }
      .den-field input, .den-field select { max-width: none; }
      .den-actions .den-button { flex: 1 1 auto; }
      .den-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
      .den-table table, .den-table tbody, .den-table tr, .den-table td { display: block; width: 100%; }
      .den-table tr { border-bottom: 1px solid var(--den-line); padding: 0.375rem 0; }
      .den-table td { border: 0; padding: 0.125rem 0.25rem; }
      .den-table td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
    }

    """
}
