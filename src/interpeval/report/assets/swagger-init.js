// /api/docs: Swagger UI (served by this app from the swagger-ui-bundle package) over the app's OpenAPI schema in
// its 3.0 form (Swagger UI 4 does not read 3.1; /api/openapi.json stays 3.1).
window.addEventListener("load", function () {
  "use strict";
  window.ui = SwaggerUIBundle({ url: "/api/docs/openapi-3.0.json", dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null });
});
