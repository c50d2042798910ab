/** The way from an error Settings can fix to Settings itself. */
export function OpenSettingsButton(props: { onOpen: () => void }) {
  return (
    <div class="button-row">
      <button type="button" class="button button--quiet" data-testid="open-settings" onClick={props.onOpen}>
        Open Settings
      </button>
    </div>
  );
}
