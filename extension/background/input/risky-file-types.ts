/**
 * File types that run, install, or carry macros when opened: keeping a download of one waits for the user's approval.
 *
 * Derived from Chromium's download file type policies (components/safe_browsing/content/resources/
 * download_file_types.asciipb: the types marked DANGEROUS or ALLOW_ON_USER_GESTURE on any platform), with the
 * macro-enabled Office, Visio and OpenDocument formats added, which open with macros the user did not write.
 * Extensions are lower case, without the dot; a name is judged by its last extension ("invoice.pdf.exe" is a program).
 */
const GROUPS: Record<string, string> = {
  windows:
    'exe com scr pif bat cmd cpl msi msix msixbundle appx appxbundle msp mst msc msh msh1 msh2 mshxml msh1xml msh2xml ps1 ps1xml ps2 ps2xml psc1 psc2 psd1 psm1 ' +
    'vb vbe vbs vbscript ws wsc wsf wsh js jse hta htt inf ins isp its job lnk reg scf sct shb shs url xbap xnk application appref-ms gadget diagcab ' +
    'diagcfg diagpkg settingcontent-ms library-ms search-ms searchconnector-ms cab chm chi hlp hpj grp mmc ocx sys drv dll crt cer der ' +
    'mau mcf mda mdb mde mdt mdw mdz ade adp accda accdb accde accdr accdt accdu accdw ops pcd plg prf prg pst',
  macros: 'docm dotm xlsm xltm xlam xlsb pptm potm ppam ppsm sldm vsdm vssm vstm vsmacros odb',
  mac: 'app dmg pkg mpkg command tool scpt applescript workflow action osx dylib kext prefpane saver terminal webloc inetloc fileloc',
  unix: 'sh bash csh ksh zsh tcsh fish run bin elf out so desktop deb rpm appimage flatpak flatpakref snap',
  mobile: 'apk apks aab xapk ipa',
  scripts: 'py pyc pyo pyw pyz pl pm rb php jar jnlp class swf',
  images: 'iso img vhd vhdx vmdk',
};

export const RISKY_EXTENSIONS: ReadonlySet<string> = new Set(Object.values(GROUPS).flatMap((list) => list.split(/\s+/)));

/** Programs and scripts by MIME type, where the name says nothing (a download served as `download` or `file`). */
const RISKY_MIME =
  /^application\/(x-msdownload|x-ms-dos-executable|x-msdos-program|vnd\.microsoft\.portable-executable|x-msi|x-ms-installer|x-executable|x-elf|x-sharedlib|x-mach-binary|x-apple-diskimage|x-newton-compatible-pkg|x-sh|x-shellscript|x-bat|java-archive|x-java-archive|vnd\.android\.package-archive|x-debian-package|x-rpm|x-redhat-package-manager|x-desktop|vnd\.ms-word\.(document|template)\.macroenabled\.12|vnd\.ms-excel\.(sheet|template|addin|sheet\.binary)\.macroenabled\.12|vnd\.ms-excel\.sheet\.binary\.macroenabled\.12|vnd\.ms-powerpoint\.(presentation|template|addin|slideshow|slide)\.macroenabled\.12|x-ms-shortcut|hta|x-iso9660-image)$/i;

/** The extension that decides how a file opens: the last one, lower case, trailing dots and spaces dropped (as Windows does). */
export function lastExtension(name: string): string {
  const base = (name.split(/[/\\]/).pop() ?? '').replace(/[.\s]+$/, '');
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** Whether a file runs, installs, or carries macros, by its name or its type. */
export function isRiskyFile(name: string, mime: string): boolean {
  return RISKY_EXTENSIONS.has(lastExtension(name)) || RISKY_MIME.test(mime.split(';')[0]?.trim() ?? '');
}
