const INTENTS: [past: RegExp, intent: string][] = [
  [/^Double-clicked\b/, 'Double-click'],
  [/^Clicked\b/, 'Click'],
  [/^Typed\b/, 'Type'],
  [/^Selected\b/, 'Select'],
  [/^Unchecked\b/, 'Uncheck'],
  [/^Checked\b/, 'Check'],
  [/^Hovered over\b/, 'Hover over'],
  [/^Pressed\b/, 'Press'],
  [/^Scrolled\b/, 'Scroll'],
  [/^Opened\b/, 'Open'],
  [/^Went back\b/, 'Go back'],
  [/^Searched\b/, 'Search'],
  [/^Waited\b/, 'Wait'],
  [/^Switched to\b/, 'Switch to'],
  [/^Closed\b/, 'Close'],
  [/^Listed\b/, 'List'],
  [/^Updated\b/, 'Update'],
  [/^Ran\b/, 'Run'],
  [/^Wrote\b/, 'Write'],
  [/^Killed\b/, 'Kill'],
  [/^Asked\b/, 'Ask'],
  [/^Finished\b/, 'Finish'],
  [/^Gave up\b/, 'Give up'],
  [/^Sent to support\b/, 'Send to support'],
  [/^Chose\b/, 'Choose'],
  [/^Read the chat\b/, 'Read the chat'],
  [/^Ended the chat\b/, 'End the chat'],
];

/**
 * Turns a step's past-tense text ("Clicked [14] button "Pay"") into what an approval asks about ("Click [14] button
 * "Pay""), so each tool writes its step text once.
 */
export function intentOf(pastText: string): string {
  const tail = (text: string): string => text.replace(/ and pressed /g, ' and press ');
  for (const [past, intent] of INTENTS) if (past.test(pastText)) return tail(pastText.replace(past, intent));
  return pastText;
}
