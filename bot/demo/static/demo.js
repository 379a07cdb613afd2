// The channel list beside the simulated Discord: who you play as, and which channel the page shows.
const secret = location.hash.slice(1);
const frame = document.getElementById("preview");
const memberList = document.getElementById("members");
const channelList = document.getElementById("channels");
const seen = new Map();  // channel id -> the last message seen there
let state = null;

async function call(path, body) {
  const headers = { "X-Strategos-Demo": secret };
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: body ? "POST" : "GET", headers, cache: "no-store", body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status === 401) refused();
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function refused() {
  document.getElementById("refused").hidden = false;
  frame.hidden = true;
  throw new Error("refused");
}

function showPreview() {
  // SimCord's page reads the secret from its own address, as the demo's page does.
  frame.src = `/preview?view=${Date.now()}#${secret}`;
}

async function open(channel, member) {
  state = await call("/demo/open", { channel, member });
  showPreview();
  render();
}

function render() {
  memberList.replaceChildren(...state.members.map((member) => {
    const button = document.createElement("button");
    button.textContent = member.name;
    button.setAttribute("aria-pressed", String(member.id === state.member));
    button.addEventListener("click", () => {
      if (member.id === state.member) return;
      // A DM belongs to one member: the other member sees their own DMs, and any other channel as it is.
      const current = state.channels.find((channel) => channel.id === state.channel);
      void open(current && current.kind === "dm" ? "dm" : state.channel, member.id).catch(console.error);
    });
    return button;
  }));
  channelList.replaceChildren(...state.channels.map((channel) => {
    if (channel.id === state.channel) seen.set(channel.id, channel.last);
    else if (!seen.has(channel.id)) seen.set(channel.id, firstLoad ? channel.last : "");
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.className = channel.kind;
    button.dataset.kind = channel.kind;
    if (channel.id === state.channel) button.setAttribute("aria-current", "true");
    if (channel.last && channel.last !== seen.get(channel.id)) button.classList.add("unread");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = { channel: "# ", thread: "↳ ", dm: "@ " }[channel.kind] + channel.name;
    button.append(name);
    button.addEventListener("click", () => void open(channel.id, state.member).catch(console.error));
    item.append(button);
    return item;
  }));
  firstLoad = false;
}

let firstLoad = true;

// Links to a match (in DMs, /games, a "current board" link) name discord.com, where the demo's server does not
// exist: inside the demo they open the channel here instead, as Discord's own client would.
const DISCORD_LINK = /^https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/channels\/(\d+|@me)\/(\d+)/;

function channelOfLink(href) {
  const link = DISCORD_LINK.exec(href);
  if (!link) return undefined;
  const known = state && state.channels.find((channel) => channel.id === link[2]);
  if (known) return known.id;
  return link[1] === "@me" ? "dm" : null;  // null: a channel this member cannot open, so nothing happens
}

frame.addEventListener("load", () => {
  const page = frame.contentDocument;  // the same origin: the preview is relayed through this server
  if (!page) return;
  page.addEventListener("click", (event) => {
    const anchor = event.target instanceof page.defaultView.Element ? event.target.closest("a[href]") : null;
    const channel = anchor ? channelOfLink(anchor.href) : undefined;
    if (channel === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    if (channel !== null) void open(channel, state.member).catch(console.error);
  }, true);
});

async function poll() {
  try {
    state = await call("/demo/state");
    render();
  } catch (error) {
    if (error.message === "refused") return;
  }
  setTimeout(poll, 1000);
}

if (!secret) {
  try { refused(); } catch (_) { /* shown */ }
} else {
  showPreview();
  void poll();
}
