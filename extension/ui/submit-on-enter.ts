/** A text box's key handler: Enter sends, Shift+Enter adds a line, and a character still being composed (IME) is left alone. */
export function submitOnEnter(submit: () => void): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  };
}
