/* Behaviour of every page, kept out of the markup (the Content-Security-Policy allows no inline
   script): a select marked data-submit-on-change submits its form (the language switch). */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el instanceof HTMLSelectElement && el.hasAttribute("data-submit-on-change") && el.form) el.form.submit();
  });
})();
