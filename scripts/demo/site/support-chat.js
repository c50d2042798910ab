// The demo shop's support chat: a launcher bottom-right that opens a small messenger with a scripted support agent.
// It behaves like common hosted widgets (typing indicator, replies in bursts, quick replies, asks for an order
// number) so Deputy's chat flow can be tried end to end without any outside service.
(function () {
  'use strict';
  var root = document.createElement('div');
  root.id = 'support-chat';
  root.innerHTML =
    '<button type="button" class="chat-launcher" aria-label="Open support chat" aria-expanded="false">Chat with us</button>' +
    '<section class="chat-window" role="dialog" aria-label="Support chat" hidden>' +
    '<header class="chat-header">Northwind support<button type="button" class="chat-close" aria-label="Close chat">×</button></header>' +
    '<ol class="chat-log" role="log" aria-live="polite"></ol>' +
    '<p class="chat-typing" hidden>Support is typing…</p>' +
    '<div class="chat-replies"></div>' +
    '<form class="chat-composer"><textarea aria-label="Write a message" placeholder="Write a message…" rows="2"></textarea>' +
    '<button type="submit" aria-label="Send">Send</button></form>' +
    '</section>';
  document.body.appendChild(root);

  var launcher = root.querySelector('.chat-launcher');
  var windowEl = root.querySelector('.chat-window');
  var log = root.querySelector('.chat-log');
  var typing = root.querySelector('.chat-typing');
  var replies = root.querySelector('.chat-replies');
  var form = root.querySelector('.chat-composer');
  var input = form.querySelector('textarea');
  var stage = 'greeting';

  function add(author, text) {
    var item = document.createElement('li');
    item.className = 'chat-message chat-message--' + author;
    item.setAttribute('data-author', author);
    var time = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    item.innerHTML = '<span class="chat-author"></span><p class="chat-text"></p><time></time>';
    item.querySelector('.chat-author').textContent = author === 'agent' ? 'Sam (support)' : 'You';
    item.querySelector('.chat-text').textContent = text;
    item.querySelector('time').textContent = time;
    log.appendChild(item);
    log.scrollTop = log.scrollHeight;
  }
  function say(parts, quick) {
    typing.hidden = false;
    replies.innerHTML = '';
    var delay = 0;
    parts.forEach(function (text, index) {
      delay += 300 + text.length * 4;
      setTimeout(function () {
        add('agent', text);
        if (index === parts.length - 1) {
          typing.hidden = true;
          (quick || []).forEach(function (label) {
            var button = document.createElement('button');
            button.type = 'button';
            button.className = 'chat-quick-reply';
            button.textContent = label;
            button.addEventListener('click', function () { send(label); });
            replies.appendChild(button);
          });
        }
      }, delay);
    });
  }
  function respond(text) {
    var order = /\b(\d{4,})\b/.exec(text);
    if (stage === 'greeting' && !order) {
      stage = 'order';
      say(['Hi, this is Sam from Northwind support.', 'Could you give me your order number?']);
    } else if ((stage === 'greeting' || stage === 'order') && order) {
      stage = 'offer';
      say(['Thanks, I found order ' + order[1] + '.', 'I can offer a store credit of $20, or a full refund if you return the item.'], [
        'Accept store credit',
        'Full refund please',
      ]);
    } else if (stage === 'order') {
      say(['I need the order number to look this up (it has at least four digits).']);
    } else if (/refund/i.test(text)) {
      stage = 'done';
      say(['Done: a full refund is on its way. You will get a return label by email.', 'Anything else I can help with?']);
    } else if (/credit/i.test(text)) {
      stage = 'done';
      say(['I have added a $20 store credit to your account.', 'Anything else I can help with?']);
    } else {
      say(['Could you tell me a bit more?']);
    }
  }
  function send(text) {
    if (!text.trim()) return;
    add('user', text.trim());
    replies.innerHTML = '';
    respond(text);
  }
  function open() {
    windowEl.hidden = false;
    launcher.hidden = true;
    launcher.setAttribute('aria-expanded', 'true');
    if (log.children.length === 0) say(['Hello! How can we help today?']);
    input.focus();
  }
  launcher.addEventListener('click', open);
  root.querySelector('.chat-close').addEventListener('click', function () {
    windowEl.hidden = true;
    launcher.hidden = false;
    launcher.setAttribute('aria-expanded', 'false');
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    send(input.value);
    input.value = '';
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send(input.value);
      input.value = '';
    }
  });
})();
