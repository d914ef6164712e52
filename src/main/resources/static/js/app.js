// Served by the application itself (CSP: script-src 'self', no inline script).
// - forms with data-confirm ask before a destructive POST;
// - buttons with data-copy="#id" copy that element's text to the clipboard;
// - a link to a closed <details> (the dashboard's "Cómo conectar" of an application) opens it;
// - a box with data-shown-once holds a secret that came in the answer to a POST: the address becomes the
//   page's own (data-shown-once), so a reload is a GET that no longer shows it and never repeats the POST.
document.addEventListener('DOMContentLoaded', function () {
  var once = document.querySelector('[data-shown-once]');
  if (once && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', once.getAttribute('data-shown-once'));
    once.scrollIntoView();
  }
  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.getAttribute('data-confirm'))) {
        event.preventDefault();
      }
    });
  });
  var openTarget = function () {
    var target = window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') {
      target.open = true;
    }
  };
  window.addEventListener('hashchange', openTarget);
  openTarget();
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.addEventListener('click', function () {
      var source = document.querySelector(button.getAttribute('data-copy'));
      if (!source) { return; }
      var text = source.textContent.trim();
      // the word in the page's language: the layout's <body data-copied> (messages common.copied)
      var done = function () { button.textContent = document.body.getAttribute('data-copied') || 'Copiado'; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done);
      } else {
        var range = document.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        try { document.execCommand('copy'); done(); } catch (e) { /* selected: the user can copy */ }
      }
    });
  });
});
