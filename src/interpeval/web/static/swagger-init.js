// /api/docs: Swagger UI (served by this app from the swagger-ui-bundle package) over the app's OpenAPI schema.
window.addEventListener("load", function () {
  "use strict";
  window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
