export const a = () => "view a";
