// The demo shop's behaviour: a product list with sorting, a cart kept in localStorage, an account form and a
// checkout that only pretends to charge. Everything stays in the browser; nothing is sent anywhere.
(function () {
  'use strict';
  var PRODUCTS = [
    { id: 'aria-one', name: 'Aria One wireless headphones', price: 129 },
    { id: 'studio-pro', name: 'Studio Pro closed-back headphones', price: 199 },
    { id: 'pocket-buds', name: 'Pocket Buds earphones', price: 39 },
    { id: 'trail-sport', name: 'Trail Sport neckband', price: 59 },
    { id: 'quiet-max', name: 'QuietMax noise-cancelling headphones', price: 249 },
  ];

  // A list kept in localStorage (the cart; the catalogue's wishlist through window.northwindList), empty when unreadable.
  function readList(key) {
    try {
      var list = JSON.parse(localStorage.getItem(key) || '[]');
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return [];
    }
  }
  window.northwindList = readList;
  function readCart() {
    return readList('cart');
  }
  function writeCart(cart) {
    localStorage.setItem('cart', JSON.stringify(cart));
    renderCount();
  }
  function money(value) {
    return '$' + value.toFixed(2);
  }
  function renderCount() {
    var count = readCart().reduce(function (sum, line) { return sum + line.qty; }, 0);
    document.querySelectorAll('[data-cart-count]').forEach(function (el) { el.textContent = String(count); });
  }
  function addToCart(id) {
    var cart = readCart();
    var line = cart.find(function (entry) { return entry.id === id; });
    if (line) line.qty += 1;
    else cart.push({ id: id, qty: 1 });
    writeCart(cart);
  }

  function renderProducts(order) {
    var list = document.getElementById('products');
    if (!list) return;
    var items = PRODUCTS.slice();
    if (order === 'price-asc') items.sort(function (a, b) { return a.price - b.price; });
    if (order === 'price-desc') items.sort(function (a, b) { return b.price - a.price; });
    list.innerHTML = '';
    items.forEach(function (product) {
      var li = document.createElement('li');
      li.className = 'product';
      li.innerHTML =
        '<h2></h2><p class="price"></p><button type="button" class="add">Add to cart</button><p class="added" role="status"></p>';
      li.querySelector('h2').textContent = product.name;
      li.querySelector('.price').textContent = money(product.price);
      var button = li.querySelector('button');
      button.setAttribute('aria-label', 'Add ' + product.name + ' to cart');
      button.addEventListener('click', function () {
        addToCart(product.id);
        li.querySelector('.added').textContent = 'Added to cart';
      });
      list.appendChild(li);
    });
  }

  function renderCart() {
    var body = document.getElementById('cart-items');
    if (!body) return;
    var cart = readCart();
    body.innerHTML = '';
    var total = 0;
    cart.forEach(function (line) {
      var product = PRODUCTS.find(function (p) { return p.id === line.id; });
      if (!product) return;
      total += product.price * line.qty;
      var row = document.createElement('tr');
      row.innerHTML = '<td></td><td></td><td></td><td><button type="button">Remove</button></td>';
      row.children[0].textContent = product.name;
      row.children[1].textContent = String(line.qty);
      row.children[2].textContent = money(product.price * line.qty);
      row.querySelector('button').setAttribute('aria-label', 'Remove ' + product.name);
      row.querySelector('button').addEventListener('click', function () {
        writeCart(readCart().filter(function (entry) { return entry.id !== line.id; }));
        renderCart();
      });
      body.appendChild(row);
    });
    if (cart.length === 0) body.innerHTML = '<tr><td colspan="4">Your cart is empty.</td></tr>';
    document.getElementById('cart-total').textContent = money(total);
  }

  var sort = document.getElementById('sort');
  if (sort) sort.addEventListener('change', function () { renderProducts(sort.value); });

  var checkout = document.getElementById('checkout');
  if (checkout) {
    checkout.addEventListener('submit', function (event) {
      event.preventDefault();
      document.getElementById('order-status').textContent = 'Order placed (demo: no money moved).';
      writeCart([]);
      renderCart();
    });
  }

  var account = document.getElementById('account');
  if (account) {
    var saved = JSON.parse(localStorage.getItem('account') || '{}');
    Object.keys(saved).forEach(function (key) {
      var field = account.elements.namedItem(key);
      if (!field) return;
      if (field.type === 'checkbox') field.checked = !!saved[key];
      else field.value = saved[key];
    });
    account.addEventListener('submit', function (event) {
      event.preventDefault();
      var data = {};
      Array.prototype.forEach.call(account.elements, function (field) {
        if (!field.name) return;
        data[field.name] = field.type === 'checkbox' ? field.checked : field.value;
      });
      localStorage.setItem('account', JSON.stringify(data));
      document.getElementById('account-status').textContent = 'Details saved.';
    });
  }

  renderProducts('featured');
  renderCart();
  renderCount();
})();
