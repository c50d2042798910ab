// The demo shop's catalogue search: results five to a page with links to the next pages, a page per product, and a
// wishlist kept in localStorage. It gives tasks that need several pages (search, page through, compare, open, save).
(function () {
  'use strict';
  var PER_PAGE = 5;
  var CATALOGUE = [
    { id: 'aria-one', name: 'Aria One wireless headphones', kind: 'headphones', price: 129, battery: 30 },
    { id: 'studio-pro', name: 'Studio Pro closed-back headphones', kind: 'headphones', price: 199, battery: 0 },
    { id: 'pocket-buds', name: 'Pocket Buds earphones', kind: 'headphones', price: 39, battery: 6 },
    { id: 'cube-mini', name: 'Cube Mini speaker', kind: 'speaker', price: 49, battery: 8 },
    { id: 'river-go', name: 'River Go portable speaker', kind: 'speaker', price: 79, battery: 14 },
    { id: 'trail-sport', name: 'Trail Sport neckband', kind: 'headphones', price: 59, battery: 12 },
    { id: 'echo-dome', name: 'Echo Dome smart speaker', kind: 'speaker', price: 99, battery: 0 },
    { id: 'beacon-2', name: 'Beacon 2 waterproof speaker', kind: 'speaker', price: 89, battery: 20 },
    { id: 'quiet-max', name: 'QuietMax noise-cancelling headphones', kind: 'headphones', price: 249, battery: 40 },
    { id: 'party-box', name: 'Party Box speaker', kind: 'speaker', price: 299, battery: 18 },
    { id: 'loft-pair', name: 'Loft Pair bookshelf speakers', kind: 'speaker', price: 179, battery: 0 },
    { id: 'pebble', name: 'Pebble pocket speaker', kind: 'speaker', price: 29, battery: 10 },
    { id: 'summit-xl', name: 'Summit XL outdoor speaker', kind: 'speaker', price: 149, battery: 26 },
    { id: 'tide-sound', name: 'Tide soundbar', kind: 'speaker', price: 229, battery: 0 },
  ];

  function readWishlist() {
    return window.northwindList('wishlist');
  }
  function battery(product) {
    return product.battery > 0 ? product.battery + ' h battery' : 'mains powered';
  }

  var results = document.getElementById('results');
  if (results) {
    var params = new URLSearchParams(location.search);
    var query = (params.get('q') || '').trim().toLowerCase();
    var page = Math.max(1, Number(params.get('page')) || 1);
    document.querySelector('#search input[name=q]').value = params.get('q') || '';
    var words = query.split(/\s+/).filter(Boolean).map(function (word) { return word.replace(/s$/, ''); });
    var found = query === '' ? [] : CATALOGUE.filter(function (product) {
      var text = (product.name + ' ' + product.kind).toLowerCase();
      return words.every(function (word) { return text.indexOf(word) >= 0; });
    });
    var pages = Math.max(1, Math.ceil(found.length / PER_PAGE));
    page = Math.min(page, pages);
    var summary = document.getElementById('search-summary');
    summary.textContent = query === ''
      ? 'Type what you are looking for.'
      : found.length + ' results for "' + query + '", page ' + page + ' of ' + pages + '.';
    found.slice((page - 1) * PER_PAGE, page * PER_PAGE).forEach(function (product) {
      var li = document.createElement('li');
      li.innerHTML = '<a></a> <span class="price"></span> <span class="battery"></span>';
      li.querySelector('a').href = '/product.html?id=' + encodeURIComponent(product.id);
      li.querySelector('a').textContent = product.name;
      li.querySelector('.price').textContent = '$' + product.price;
      li.querySelector('.battery').textContent = battery(product);
      results.appendChild(li);
    });
    var nav = document.getElementById('pages');
    var link = function (label, target) {
      var a = document.createElement('a');
      a.href = '/search.html?q=' + encodeURIComponent(query) + '&page=' + target;
      a.textContent = label;
      nav.appendChild(a);
      nav.appendChild(document.createTextNode(' '));
    };
    if (page > 1) link('Previous page', page - 1);
    if (page < pages) link('Next page', page + 1);
  }

  var article = document.getElementById('product');
  if (article) {
    var id = new URLSearchParams(location.search).get('id');
    var product = CATALOGUE.find(function (entry) { return entry.id === id; });
    if (!product) {
      article.innerHTML = '<h1>No such product</h1><p><a href="/search.html">Search the catalogue</a></p>';
    } else {
      document.title = product.name + ' · Northwind Audio';
      article.innerHTML = '<h1></h1><p class="price"></p><p class="battery"></p>' +
        '<button type="button" id="wish">Add to wishlist</button><p role="status" id="wish-status"></p>';
      article.querySelector('h1').textContent = product.name;
      article.querySelector('.price').textContent = '$' + product.price;
      article.querySelector('.battery').textContent = battery(product);
      var status = article.querySelector('#wish-status');
      if (readWishlist().indexOf(product.id) >= 0) status.textContent = 'On your wishlist.';
      article.querySelector('#wish').addEventListener('click', function () {
        var list = readWishlist();
        if (list.indexOf(product.id) < 0) list.push(product.id);
        localStorage.setItem('wishlist', JSON.stringify(list));
        status.textContent = 'Added to your wishlist.';
      });
    }
  }
})();
