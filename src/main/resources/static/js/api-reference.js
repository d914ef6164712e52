// /documentacion/api: Swagger UI (from the swagger-ui webjar) over the service's OpenAPI document.
// A file of its own, not an inline script: the pages' Content-Security-Policy allows scripts of this origin only.
document.addEventListener('DOMContentLoaded', function () {
  var target = document.getElementById('swagger-ui');
  if (!target || typeof SwaggerUIBundle !== 'function') {
    return;
  }
  SwaggerUIBundle({
    url: target.getAttribute('data-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    // "Try it out" sends requests from this page; the session's CSRF token is not in it, so POSTs are read-only here
    supportedSubmitMethods: ['get'],
    validatorUrl: null
  });
});
