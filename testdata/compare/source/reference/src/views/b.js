export const b = () => "view b";
