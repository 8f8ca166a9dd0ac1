/* The hand history pages: times in the viewer's own time zone and language, and the replay's
   step-through (first / previous / next / last, and the arrow, Home and End keys). Without this
   script every step shows at once, times in UTC. */
(function () {
  "use strict";

  function localTimes(root) {
    var date, time, zone;
    try {
      var lang = document.documentElement.lang || undefined;
      date = new Intl.DateTimeFormat(lang, { year: "numeric", month: "2-digit", day: "2-digit" });
      time = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
      zone = new Intl.DateTimeFormat(lang, { timeZoneName: "short" });
    } catch (e) {
      return;
    }
    root.querySelectorAll("time[data-local-time]").forEach(function (el) {
      var moment = new Date(el.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      var name = zone.formatToParts(moment).filter(function (p) { return p.type === "timeZoneName"; });
      el.title = el.textContent;
      el.textContent = date.format(moment) + " " + time.format(moment) + (name.length ? " " + name[0].value : "");
    });
  }

  function stepper(root) {
    var steps = Array.prototype.slice.call(root.querySelectorAll("[data-step]"));
    var nav = root.querySelector("[data-replay-nav]");
    var status = root.querySelector("[data-replay-status]");
    if (!steps.length || !nav) return;
    var buttons = {};
    nav.querySelectorAll("[data-go]").forEach(function (b) { buttons[b.getAttribute("data-go")] = b; });
    var current = 0;

    function show(index) {
      current = Math.max(0, Math.min(steps.length - 1, index));
      steps.forEach(function (step, i) { step.hidden = i !== current; });
      buttons.first.disabled = buttons.prev.disabled = current === 0;
      buttons.next.disabled = buttons.last.disabled = current === steps.length - 1;
      var heading = steps[current].querySelector("h2");
      if (status && heading) status.textContent = heading.textContent.replace(/\s+/g, " ").trim();
      root.setAttribute("data-current", String(current + 1));
    }

    nav.addEventListener("click", function (event) {
      var button = event.target.closest("[data-go]");
      if (!button) return;
      var go = button.getAttribute("data-go");
      show(go === "first" ? 0 : go === "last" ? steps.length - 1 : current + (go === "next" ? 1 : -1));
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      var target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      show(moves[event.key]);
    });
    var fromHash = /^#step-(\d+)$/.exec(window.location.hash);
    nav.hidden = false;
    root.classList.add("stepping");
    show(fromHash ? Number(fromHash[1]) - 1 : 0);
  }

  localTimes(document);
  document.querySelectorAll("[data-replay]").forEach(stepper);
})();
