// Annotation pages: clicks on tokens and radio buttons build the JSON answer that the form posts.
(function () {
  "use strict";
  const field = document.getElementById("answer");
  const form = document.getElementById("answer-form");
  if (!field || !form) return;
  let state = {};
  try { state = JSON.parse(field.value) || {}; } catch (e) { state = {}; }

  function answers() { state.answers = state.answers || {}; return state.answers; }

  document.querySelectorAll(".tokens[data-mode=select]").forEach(function (box) {
    const key = box.dataset.field, question = box.dataset.question;
    const current = function () { return key ? (state[key] = state[key] || []) : (answers()[question] = answers()[question] || []); };
    const chosen = current();
    box.querySelectorAll("button.tokbtn").forEach(function (btn) {
      const index = Number(btn.dataset.index);
      if (chosen.indexOf(index) >= 0) btn.classList.add("on");
      btn.setAttribute("aria-pressed", btn.classList.contains("on"));
      btn.addEventListener("click", function () {
        const list = current(), at = list.indexOf(index);
        if (at >= 0) { list.splice(at, 1); btn.classList.remove("on"); } else { list.push(index); btn.classList.add("on"); }
        list.sort(function (a, b) { return a - b; });
        btn.setAttribute("aria-pressed", btn.classList.contains("on"));
      });
    });
  });
  document.querySelectorAll("input[type=radio][data-score]").forEach(function (radio) {
    radio.addEventListener("change", function () { state[radio.dataset.score] = Number(radio.value); });
  });
  document.querySelectorAll("input[type=radio][data-question]").forEach(function (radio) {
    radio.addEventListener("change", function () { answers()[radio.dataset.question] = radio.value; });
  });
  const text = document.getElementById("generic-answer");
  form.addEventListener("submit", function () {
    field.value = text ? text.value : JSON.stringify(state);
  });
})();
