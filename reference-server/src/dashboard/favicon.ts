/** The favicon every page links (html.ts) and `/favicon.svg` serves: the brand colour's rounded square with an "s". */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2b59c3"/><path d="M21 11.5c-1-1.4-2.8-2.2-4.9-2.2-2.9 0-4.8 1.5-4.8 3.6 0 2.3 2 3.1 4.6 3.7 2.3.5 3.2 1 3.2 2.1 0 1.2-1.2 1.9-3 1.9-1.9 0-3.4-.8-4.2-2.1" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>
`;
