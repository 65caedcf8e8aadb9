// The storefront's own code: sign up through the backend, tell svc about the signup, and buy through the backend.
(function () {
  var show = function (id, text, ok) {
    var el = document.getElementById(id);
    el.textContent = text;
    el.className = ok ? 'ok' : 'error';
  };
  var post = function (path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json.message || 'HTTP ' + response.status);
        return json;
      });
    });
  };
  var refreshClickId = function () {
    svc('getClickId', function (clickId) {
      document.getElementById('click-id').textContent = clickId || 'none (no referral link yet)';
    });
  };

  // The tracker records the click as it loads; show the cookie once that answer is in.
  setTimeout(refreshClickId, 500);

  document.getElementById('signup').addEventListener('submit', function (event) {
    event.preventDefault();
    var email = /** @type {HTMLInputElement} */ (document.getElementById('email')).value;
    // 1. Your backend creates the user and answers its stable id (the customer_key of every later call).
    post('api/signup', { email: email })
      .then(function (user) {
        // 2. The browser signup helper records the lead with the svc_click_id cookie.
        svc('signup', user.customer_key, { email: email }, function (result) {
          refreshClickId();
          if (result.ok) show('signup-result', 'Signed up as ' + user.customer_key + (result.alreadyLead ? ' (already a lead)' : ''), true);
          else
            show(
              'signup-result',
              'svc did not record the lead: ' + (result.error ? result.error.code || result.error.message : 'network error'),
              false,
            );
        });
      })
      .catch(function (error) {
        show('signup-result', error.message, false);
      });
  });

  // The form is ours now: let it be sent (index.html renders its button disabled until this script runs).
  /** @type {HTMLButtonElement} */ (document.querySelector('#signup button[type="submit"]')).disabled = false;

  var buttons = document.querySelectorAll('button.buy');
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (event) {
      // The backend knows the price and the signed-in user; the browser only names the product.
      post('api/checkout', { product: /** @type {Element} */ (event.currentTarget).getAttribute('data-product') })
        .then(function (sale) {
          var money = function (cents) {
            return (cents / 100).toFixed(2) + ' ' + sale.currency;
          };
          var commission = Math.round((sale.amount_cents * sale.commission_percent) / 100);
          show(
            'buy-result',
            'Paid ' +
              money(sale.amount_cents) +
              '. svc recorded sale ' +
              sale.sale_id +
              '; the partner earns ' +
              money(commission) +
              ' (' +
              sale.commission_percent +
              ' %).',
            true,
          );
        })
        .catch(function (error) {
          show('buy-result', error.message, false);
        });
    });
  }
})();
